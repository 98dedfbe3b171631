/**
 * One HTTP exchange over node:http(s): no redirects followed, bounded answers, streamed request bodies, and
 * a precise "did the request reach the server" flag, which axios cannot tell (it hides whether the socket
 * ever connected), and which decides whether a non-idempotent POST may be sent again.
 */
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { AbortError, NetworkError } from './api-errors';
import type { ProxyResolver } from './proxy-config';
import { redactProxy } from './proxy-config';
import { describeUrl } from './url-policy';

export type HttpRequest = {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** A buffer, or a function opening the stream to send (so nothing is read before the request goes out). */
  body?: Buffer | (() => Readable);
  /** `total`: the whole exchange must finish within timeoutMs; `idle`: no progress for timeoutMs (uploads). */
  timeout: { ms: number; kind: 'total' | 'idle' };
  maxResponseBytes: number;
  /**
   * Never reuse a kept-alive connection. For requests that must not be sent twice: on a reused socket the
   * server may close it just as the request goes out, and that reset would look like a lost answer.
   */
  freshConnection?: boolean;
  signal?: AbortSignal;
  /** Bytes of a streamed body handed to the socket so far. */
  onBodyBytes?: (sent: number) => void;
};

export type HttpResponse = { status: number; headers: IncomingHttpHeaders; body: Buffer };

export type Transport = {
  send(request: HttpRequest): Promise<HttpResponse>;
  /**
   * Retires the connections: idle keep-alive ones close now; a request under way (a batch being sent, a PUT) finishes
   * on its own, and its connection closes once it ends instead of being kept for reuse.
   */
  close(): void;
};

export type TransportOptions = { proxy: ProxyResolver; ca?: string | Buffer };

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed for now',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed and not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its TLS certificate issuer is not trusted',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
  ERR_SSL_UNSUPPORTED_PROTOCOL: 'it does not offer TLS 1.2 or newer',
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'it does not offer TLS 1.2 or newer',
  // OpenSSL's "wrong version number": what answered is no TLS at all, most often a plain http service.
  ERR_SSL_WRONG_VERSION_NUMBER: 'the service at this address does not speak https (it may be a plain http service: check the address, http:// or https://, and its port)',
};

/** TLS trust and version failures: permanent, so retrying is pointless. */
/** A time-out as a person says it: "30 s", or "250 ms" below a second. */
function duration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export function isTlsFailure(code: string | undefined): boolean {
  return !!code && (/^(ERR_SSL_|ERR_TLS_|CERT_)/.test(code) || code.includes('CERT') || code.includes('SELF_SIGNED'));
}

export function createTransport(options: TransportOptions): Transport {
  const tls = { minVersion: 'TLSv1.2' as const, ...(options.ca ? { ca: options.ca } : {}) };
  const agents = new Map<string, http.Agent>();
  // Once retired, no connection is kept for reuse, also one a retry of a request under way opens afterwards.
  let retired = false;

  function agentFor(url: URL, fresh: boolean): { agent: http.Agent; via?: string } {
    const proxy = options.proxy(url);
    const key = `${fresh ? 'fresh' : 'kept'} ${proxy?.href ?? url.protocol}`;
    let agent = agents.get(key);
    if (!agent) {
      const keepAlive = !fresh;
      agent = proxy
        // CONNECT for every target, http ones too: one code path, and the proxy never sees a request line.
        ? new HttpsProxyAgent(proxy.href, { keepAlive, ...tls })
        : url.protocol === 'https:' ? new https.Agent({ keepAlive, ...tls }) : new http.Agent({ keepAlive });
      if (retired) retire(agent);
      agents.set(key, agent);
    }
    return proxy ? { agent, via: redactProxy(proxy) } : { agent };
  }

  return {
    send: (request) => exchange(request, agentFor(request.url, request.freshConnection ?? false), tls),
    close() {
      // Not agent.destroy(): that would also cut the requests under way, whose outcome (a batch the service may have
      // imported) would then be unknown, and an upload would start again from its first byte.
      retired = true;
      for (const agent of agents.values()) retire(agent);
    },
  };
}

/** No connection of the agent is kept for reuse any more: idle ones close now, busy ones once their request ends. */
function retire(agent: http.Agent): void {
  agent.keepSocketAlive = () => false;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

function exchange(r: HttpRequest, route: { agent: http.Agent; via?: string }, tls: object): Promise<HttpResponse> {
  const { url } = r;
  const through = route.via ? ` (through proxy ${route.via})` : '';
  const where = `${r.method} ${describeUrl(url)}${through}`;
  const address = `${url.origin}${through}`;
  return new Promise<HttpResponse>((resolve, reject) => {
    if (r.signal?.aborted) {
      reject(new AbortError());
      return;
    }
    const secure = url.protocol === 'https:';
    const req = (secure ? https : http).request({
      method: r.method,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: r.headers,
      agent: route.agent,
      ...(secure ? tls : {}),
    });
    // Node checks Content-Length against the bytes written (a file that shrank mid-upload); the types lack it.
    Object.assign(req, { strictContentLength: true });
    // "Reached" = the connection (and TLS handshake) to the target is up, so request bytes may have arrived.
    let reached = false;
    let settled = false;
    let body: Readable | undefined;
    let timer: NodeJS.Timeout | undefined;

    const cleanup = () => {
      clearTimeout(timer);
      r.signal?.removeEventListener('abort', onAbort);
      if (body && !body.destroyed) body.destroy();
    };
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      req.destroy();
      reject(error);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const reason = `${reached ? 'no answer' : 'no connection'} within ${duration(r.timeout.ms)}`;
        const message = reached
          ? `${where}: no answer within ${r.timeout.ms} ms`
          : `cannot reach ${where}: no connection within ${r.timeout.ms} ms`;
        fail(new NetworkError(message, { code: 'ETIMEDOUT', requestSent: reached, reason, address }));
      }, r.timeout.ms);
    };
    const touch = () => {
      if (r.timeout.kind === 'idle') arm();
    };
    function onAbort() {
      fail(new AbortError());
    }
    r.signal?.addEventListener('abort', onAbort, { once: true });
    arm();

    req.on('socket', (socket) => {
      const up = () => {
        reached = true;
        touch();
      };
      if (req.reusedSocket) up();
      else if (socket instanceof TLSSocket) socket.once('secureConnect', up);
      else if (socket.connecting) socket.once('connect', up);
      else up();
    });

    req.on('error', (error: NodeJS.ErrnoException) => {
      // OpenSSL's "wrong version number" comes as a bare EPROTO; named, it is told as what it is, and not retried.
      const code = error.code === 'EPROTO' && /wrong version number/i.test(error.message) ? 'ERR_SSL_WRONG_VERSION_NUMBER' : error.code;
      const reason = (code && REASONS[code]) ?? error.message;
      const message = reached ? `${where}: the connection broke (${reason})` : `cannot reach ${where}: ${reason}`;
      fail(new NetworkError(message, { ...(code ? { code } : {}), requestSent: reached, reason, address, cause: error }));
    });

    req.on('response', (res) => {
      reached = true;
      touch();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > r.maxResponseBytes) {
          fail(new NetworkError(`${where}: the answer is larger than ${r.maxResponseBytes} bytes`, {
            code: 'ERESPONSETOOLARGE', requestSent: true, address, reason: `the answer is larger than ${r.maxResponseBytes} bytes`,
          }));
          return;
        }
        chunks.push(chunk);
        touch();
      });
      res.on('error', (error: NodeJS.ErrnoException) => {
        fail(new NetworkError(`${where}: the connection broke while reading the answer`, {
          ...(error.code ? { code: error.code } : {}), requestSent: true, address, reason: 'the connection broke while reading the answer', cause: error,
        }));
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        cleanup();
        // An early answer (403, 413...) while the body is still streaming: stop sending it.
        if (!req.writableFinished) req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
    });

    if (r.body === undefined) {
      req.end();
    } else if (Buffer.isBuffer(r.body)) {
      req.end(r.body);
    } else {
      body = r.body();
      let sent = 0;
      body.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        r.onBodyBytes?.(sent);
        touch();
      });
      body.on('error', (error) => fail(error));
      body.pipe(req);
    }
  });
}
