/**
 * Browser mode's HTTP server: the built renderer, the bridge methods (POST /bridge/<method>) and the bridge events
 * (Server-Sent Events at /bridge/events), on a loopback address only, behind the sign-ins of ui-auth.ts and sign-ins.ts.
 * `POST /signin` with the token gives a script a new one-time sign-in address.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BRIDGE_HTTP, type BridgeErrorEnvelope, type BridgeEventMessage } from '../../../shared/bridge';
import { HTTP_STATUS, type BridgeHandlers } from '../../core/bridge';
import { createLogger, type Logger } from '../../lib/logger';
import { createEventStream, type EventStream } from './event-stream';
import { staticFile } from './static-files';
import { NOT_SIGNED_IN_MESSAGE, SIGNED_IN_SCRIPT, SIGNED_IN_SCRIPT_PATH, signedInPage, USED_ADDRESS_MESSAGE } from './sign-in-page';
import { createSignIns, SIGN_IN_CODE_TTL_MS, type SignIns } from './sign-ins';
import { createUiAuth, type UiAuth } from './ui-auth';

/** A manual batch is at most 5 MB of JSON; the envelope around it adds little. */
export const BRIDGE_BODY_LIMIT = 8 * 1024 * 1024;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
/** Where a script trades the token for a new sign-in address. */
const SIGN_IN_PATH = '/signin';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

export type UiServerOptions = {
  handlers: BridgeHandlers;
  /** Feeds bridge events to `send` until the returned function is called. */
  subscribe(send: (message: BridgeEventMessage) => void): () => void;
  /** The built renderer (index.html and assets/). */
  rendererDir: string;
  /** A loopback address only: 127.0.0.1 (default; `localhost` is taken as it) or ::1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** The token, codes and sessions; default new ones. A restarted server given the old ones keeps its pages signed in. */
  signIns?: SignIns;
  logger?: Logger;
};

export type UiServer = {
  /** A new one-time sign-in address: `http://127.0.0.1:<port>/?code=<code>`. */
  signInUrl(): string;
  readonly origin: string;
  readonly port: number;
  /** For scripts, as `Authorization: Bearer`. */
  readonly token: string;
  readonly signIns: SignIns;
  readonly events: EventStream;
  close(): Promise<void>;
};

export class NotLoopbackError extends Error {
  override readonly name = 'NotLoopbackError';
}

const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(status, { ...BASE_HEADERS, 'content-length': String(Buffer.byteLength(body)), ...headers });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, JSON.stringify(value), { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
}

function sendError(response: ServerResponse, status: number, error: BridgeErrorEnvelope): void {
  sendJson(response, status, { ok: false, error });
}

async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) return 'too-large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return 'too-large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  if (options.host !== undefined && !LOOPBACK_HOSTS.has(options.host)) {
    throw new NotLoopbackError(`browser mode listens on a loopback address only (127.0.0.1, localhost or ::1), not ${options.host}`);
  }
  // `localhost` is 127.0.0.1: a browser may resolve the name to ::1 first, where another local user could listen on
  // the same port and be handed the sign-in code. The address printed and listened on is the literal one.
  const host = options.host === undefined || options.host === 'localhost' ? '127.0.0.1' : options.host;
  const logger = options.logger ?? createLogger('ui');
  const events = createEventStream();
  // Known once listening: the allowed Host and Origin name the port.
  const ready: { auth?: UiAuth } = {};

  const signIns = options.signIns ?? createSignIns();
  let origin = '';
  const signInUrl = () => `${origin}/?code=${signIns.newCode()}`;

  const refuse = (request: IncomingMessage, response: ServerResponse, status: number, code: 'unauthorized' | 'invalid_argument', message: string) => {
    if (request.url?.startsWith(BRIDGE_HTTP.methods) || request.url?.startsWith(SIGN_IN_PATH)) sendError(response, status, { name: 'BridgeError', code, message });
    else send(response, status, `${message}\n`, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  };

  const callMethod = async (request: IncomingMessage, response: ServerResponse, method: string) => {
    if (!/^application\/json\s*(;.*)?$/i.test(request.headers['content-type'] ?? '')) {
      sendError(response, 415, { name: 'BridgeError', code: 'invalid_argument', message: 'the request must be JSON (content-type: application/json)' });
      return;
    }
    const body = await readBody(request, BRIDGE_BODY_LIMIT);
    if (body === 'too-large') {
      sendError(response, 413, { name: 'BridgeError', code: 'invalid_argument', message: `the request is larger than ${BRIDGE_BODY_LIMIT} bytes` });
      return;
    }
    let argument: unknown;
    try {
      argument = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
    } catch {
      sendError(response, 400, { name: 'BridgeError', code: 'invalid_argument', message: 'the request is not valid JSON' });
      return;
    }
    const reply = await options.handlers.call(method, argument);
    if (reply.ok) sendJson(response, 200, reply);
    else sendError(response, HTTP_STATUS[reply.error.code], reply.error);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse, a: UiAuth): Promise<void> => {
    if (!a.hostAllowed(request)) return refuse(request, response, 403, 'unauthorized', 'this server answers only to its own loopback address');
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const code = request.method === 'GET' ? url.searchParams.get('code') : null;
    if (!(code === null ? a.originAllowed(request) : a.signInAllowed(request))) {
      return refuse(request, response, 403, 'unauthorized', 'requests from other sites are refused');
    }
    if (code !== null) {
      // Used up whatever happens next: the address stays in the browser's history, where it must open nothing.
      const signedIn = signIns.redeem(code);
      url.searchParams.delete('code');
      // Never `//host/...`: that would lead elsewhere.
      const target = `${url.pathname.replace(/^\/+/, '/')}${url.search}`;
      if (signedIn) {
        return send(response, 200, signedInPage(target, signedIn.bridgeKey), {
          'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': CSP,
          'set-cookie': a.cookie(signedIn.session),
        });
      }
      // An old address from the history in a browser signed in already: just the app.
      if (a.authenticated(request)) return send(response, 303, '', { location: target, 'cache-control': 'no-store' });
      return refuse(request, response, 401, 'unauthorized', USED_ADDRESS_MESSAGE);
    }
    if (url.pathname === SIGN_IN_PATH) {
      if (request.method !== 'POST') return send(response, 405, '', { allow: 'POST' });
      if (!a.bearer(request)) return refuse(request, response, 401, 'unauthorized', 'a new sign-in address needs the token payroll-uploader ui printed, as Authorization: Bearer');
      return sendJson(response, 200, { ok: true, result: { url: signInUrl(), expiresInSeconds: SIGN_IN_CODE_TTL_MS / 1000 } });
    }
    // Nothing secret: what the signed-in page runs, before the app's own pages.
    if (url.pathname === SIGNED_IN_SCRIPT_PATH && request.method === 'GET') {
      return send(response, 200, SIGNED_IN_SCRIPT, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    }
    const bridge = url.pathname === BRIDGE_HTTP.events || url.pathname.startsWith(BRIDGE_HTTP.methods);
    if (!(bridge ? a.bridgeAllowed(request, url) : a.authenticated(request))) {
      return refuse(request, response, 401, 'unauthorized', NOT_SIGNED_IN_MESSAGE);
    }

    if (url.pathname === BRIDGE_HTTP.events) {
      if (request.method !== 'GET') return send(response, 405, '', { allow: 'GET' });
      return events.attach(request, response);
    }
    if (url.pathname.startsWith(BRIDGE_HTTP.methods)) {
      if (request.method !== 'POST') return send(response, 405, '', { allow: 'POST' });
      return callMethod(request, response, url.pathname.slice(BRIDGE_HTTP.methods.length));
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, '', { allow: 'GET' });
    // Paths without an extension are the screens' own routes: they all load the one page.
    const file = (await staticFile(options.rendererDir, url.pathname))
      ?? (/\.[a-z0-9]+$/i.test(url.pathname) ? undefined : await staticFile(options.rendererDir, '/'));
    // Browsers ask for an icon on their own; until the renderer ships one, say "nothing" rather than 404.
    if (!file && url.pathname === '/favicon.ico') return send(response, 204, '', { 'cache-control': 'max-age=86400' });
    if (!file) return send(response, 404, 'not found\n', { 'content-type': 'text/plain; charset=utf-8' });
    return send(response, 200, request.method === 'HEAD' ? '' : file.body, {
      'content-type': file.type,
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-store',
      'content-security-policy': CSP,
    });
  };

  const server = createServer((request, response) => {
    const started = performance.now();
    response.on('finish', () => {
      // The path only: the query may hold a sign-in code.
      logger.debug(`${request.method} ${(request.url ?? '').split('?')[0]} ${response.statusCode} ${Math.round(performance.now() - started)} ms`);
    });
    if (!ready.auth) return send(response, 503, 'starting\n', {});
    handle(request, response, ready.auth).catch((error: unknown) => {
      logger.error(`${request.method} ${(request.url ?? '').split('?')[0]} failed: ${(error as Error).message}`);
      if (!response.headersSent) sendError(response, 500, { name: 'Error', code: 'internal', message: 'the request failed; see the log' });
      else response.destroy();
    });
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: options.port ?? 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://${host === '::1' ? '[::1]' : host}:${port}`;
  ready.auth = createUiAuth(port, signIns);
  const unsubscribe = options.subscribe((message) => events.publish(message));

  let closing: Promise<void> | undefined;
  return {
    signInUrl,
    origin,
    port,
    token: signIns.token,
    signIns,
    events,
    close() {
      closing ??= (async () => {
        unsubscribe();
        events.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), 5_000);
        await closed;
        clearTimeout(force);
      })();
      return closing;
    },
  };
}
