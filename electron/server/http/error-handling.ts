/** Every error leaves as the spec's error body; every response carries X-Trace-Id (404 and 405: unknown-routes.ts). */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_TITLES, errorBody } from '../../../shared';
import type { Logger } from '../../lib/logger';
import { CONTINUE_RE } from './expect-continue';
import { HttpError } from './http-error';
import { routedPath } from './routed-path';

export const newTraceId = () => randomUUID().replaceAll('-', '');

const FASTIFY_STATUS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'the request body is larger than this endpoint accepts'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported Content-Type'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'the request body is empty'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'the Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_TYPE: [415, 'the Content-Type header is empty'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'the Content-Type header is not valid'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'the body is not valid JSON'],
};

/** The longest URL (path and query) accepted; longer ones are a 414 (every real URL of the API is far shorter). */
export const MAX_URL_LENGTH = 8192;

/** The token endpoint's errors carry OAuth's `error` code too (RFC 6749 section 5.2). */
const TOKEN_PATH = '/oauth/v1/access-token';

const oauthExtra = (request: FastifyRequest, status: number) =>
  routedPath(request.url) === TOKEN_PATH && status >= 400 && status < 500 && status !== 401 ? { error: 'invalid_request' as const } : {};

/** A byte count as people say it: 5 MB, 16 KB. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** The largest request line and headers together: Node's default `maxHeaderSize`, which the server keeps. */
export const MAX_HEADER_BYTES = 16 * 1024;

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, `the request line and headers are too large (at most ${sizeText(MAX_HEADER_BYTES)} together)`],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request was not received in time'],
  // chunked not last (`chunked, gzip`), given twice, or with parameters: where the body ends is unknown (RFC 9112 section 6.3).
  HPE_INVALID_TRANSFER_ENCODING: [400, 'the Transfer-Encoding is not valid: it must end in chunked, given once, so that where the body '
    + 'ends is known; send the body with Content-Length, or with Transfer-Encoding: chunked'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'the Content-Length is not valid: it must be a whole number of bytes, the size of the body'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'Content-Length is given more than once; give it once'],
};

// Either framing header could say where the body ends, and the two may disagree (RFC 9112 section 6.3).
const BOTH_FRAMINGS: [number, string] = [400, 'a request may not carry both Content-Length and Transfer-Encoding (the two could '
  + 'disagree on where the body ends); send the body with one of the two'];

/**
 * Whether the parser refused the request for carrying both Content-Length and Transfer-Encoding. It reports that as
 * the code of whichever header came second (an invalid Transfer-Encoding when Content-Length came first), so the
 * code alone would name the wrong fault: its reason says so, and so do the header lines that arrived.
 */
function carriesBothFramings(error: ConnectionError, packet: Buffer | undefined): boolean {
  if (error.code !== 'HPE_INVALID_TRANSFER_ENCODING' && error.code !== 'HPE_INVALID_CONTENT_LENGTH') return false;
  if (/can't be present with/i.test(error.message)) return true;
  const head = packet?.toString('latin1', 0, error.bytesParsed) ?? '';
  return /\r\ncontent-length[ \t]*:/i.test(head) && /\r\ntransfer-encoding[ \t]*:/i.test(head);
}

/** The versions this server speaks; any other is a 505 (RFC 9110 section 15.6.6 asks the answer to say which are). */
const SPOKEN = 'this server speaks HTTP/1.1 (and HTTP/1.0): send the request as HTTP/1.1';
const unsupportedVersion = (version: string) => `HTTP/${version} is not supported; ${SPOKEN}`;

/**
 * The version of a request line the parser refused for its version alone: a well-formed `HTTP/d.d` it does not take
 * (`HTTP/1.2`, `HTTP/3.0`; it takes 0.9 and 2.0, which refusalBeforeRoute answers), or the `PRI * HTTP/2.0` preface
 * of HTTP/2 without upgrade. A malformed version (`HTTP/1`, `HTTP/a.b`, a bare LF after it) stays a 400.
 * Node reports where it stopped: just after the version's digits.
 */
function refusedVersion(error: ConnectionError, packet: Buffer | undefined): string | undefined {
  if (error.code === 'HPE_PAUSED_H2_UPGRADE') return '2.0';
  if (error.code !== 'HPE_INVALID_VERSION' || !packet) return undefined;
  const end = error.bytesParsed;
  const version = /[ ]HTTP\/(\d\.\d)$/.exec(packet.toString('latin1', Math.max(0, end - 16), end))?.[1];
  // What follows must end the line (or not have arrived yet): `HTTP/1.2x` is malformed, not another version.
  const after = packet.toString('latin1', end, end + 2);
  return version !== undefined && '\r\n'.startsWith(after) ? version : undefined;
}

/** A request the HTTP parser refused, as answered: `head` is what had arrived of it, when Node kept that. */
export type ParserRefusal = { traceId: string; status: number; head: Buffer | undefined; body: string };

/**
 * Errors the HTTP parser raises before Fastify sees a request (headers too large, a malformed request line):
 * answered with the same error body and an X-Trace-Id like every other answer, then the connection is closed.
 * `onAnswered` hears of each such answer (the request log records it).
 */
export function clientErrorHandler(
  logger: Logger, onAnswered: (refusal: ParserRefusal) => void = () => undefined,
): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // An answer already on its way (a refusal sent as the headers arrived, before the parser found the body's framing
    // unreadable): a second one would be read as the answer to a request never sent. Node's own handler holds back
    // likewise; the answer sent is let out whole when it is, and the connection closed.
    const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (answering?.headersSent) {
      if (answering.writableEnded) socket.end();
      else socket.destroy();
      return;
    }
    // Node hands the bytes read so far as a Buffer (Fastify's typings describe its JSON form).
    const rawPacket: unknown = error.rawPacket;
    const packet = Buffer.isBuffer(rawPacket) ? rawPacket : undefined;
    const version = refusedVersion(error, packet);
    const known = version !== undefined ? ([505, unsupportedVersion(version)] as const)
      : carriesBothFramings(error, packet) ? BOTH_FRAMINGS
        : error.code && Object.hasOwn(CLIENT_ERRORS, error.code) ? CLIENT_ERRORS[error.code] : undefined;
    const [status, message] = known ?? [400, `the request is not valid HTTP (${error.code ?? error.message})`];
    const traceId = newTraceId();
    logger.debug(`trace ${traceId}: refused below the router: ${error.code ?? ''} ${error.message}`);
    const body = answerRaw(socket, status, message, traceId);
    onAnswered({ traceId, status, head: packet, body });
  };
}

/** Writes an error answer straight to a socket and closes it; returns the error body. */
function answerRaw(socket: Duplex, status: number, message: string, traceId: string): string {
  const body = JSON.stringify(errorBody(status, [message]));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TITLES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nX-Trace-Id: ${traceId}\r\nConnection: close\r\n\r\n${body}`,
  );
  return body;
}

/**
 * Node's `connect` event: a CONNECT request, which Node hands neither to Fastify nor to the parser's error
 * handler (without a listener the connection was closed with no answer). It is a 405: this server is no proxy.
 */
export function connectRefusal(onAnswered: (refusal: ParserRefusal) => void = () => undefined): (request: IncomingMessage, socket: Duplex) => void {
  return (request, socket) => {
    const traceId = newTraceId();
    const body = answerRaw(socket, 405, 'CONNECT is not supported: this server is not a proxy', traceId);
    onAnswered({ traceId, status: 405, head: Buffer.from(`CONNECT ${request.url ?? ''} HTTP/1.1\r\n`, 'latin1'), body });
  };
}

const urlTooLong = (url: string) => new HttpError(414, [`the URL is ${url.length} characters long; at most ${MAX_URL_LENGTH} are accepted`]);

/**
 * Fastify's `frameworkErrors`: the router's own refusals (a path with a bad percent-encoding such as `%zz`, a path
 * segment longer than `maxParamLength`) answered like every other error, with X-Trace-Id. No hook runs for them,
 * so `onAnswered` hears of each answer, with its body (the request log records it).
 */
export function frameworkErrors(
  onAnswered: (request: FastifyRequest, reply: FastifyReply, body: string) => void,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    const refusal = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? urlTooLong(request.url)
      : error.code === 'FST_ERR_BAD_URL'
        ? new HttpError(400, ['the URL holds a % that does not start a valid percent-encoding; write a literal % as %25'])
        : new HttpError(400, [error.message]);
    const body = JSON.stringify(errorBody(refusal.statusCode, refusal.messages));
    void reply.code(refusal.statusCode).header('X-Trace-Id', request.id).type('application/json; charset=utf-8').send(body);
    onAnswered(request, reply, body);
  };
}

/**
 * The server leaves Node's own Host check off (`requireHostHeader: false`, which answers a bare 400 that nothing
 * logs): this one answers the same refusal with the error body, and the request log has it.
 */
export const HTTP_SERVER_OPTIONS = { requireHostHeader: false } as const;

const isHttp11 = (raw: IncomingMessage): boolean => raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1;

/** Node's parser takes HTTP/0.9 (also a request line without a version) and HTTP/2.0 too: neither is spoken here. */
const isSpokenVersion = (raw: IncomingMessage): boolean => raw.httpVersionMajor === 1 && raw.httpVersionMinor <= 1;

/**
 * How many Host header lines the request has: Node keeps the first of several and drops the others, so only the
 * raw headers show them (a handful of names, compared by length first).
 */
function hostLines(raw: IncomingMessage): number {
  const headers = raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}

/** The transfer codings of the request's Transfer-Encoding, in order (every line of it: Node joins them). */
function transferCodings(raw: IncomingMessage): string[] | undefined {
  const header = raw.headers['transfer-encoding'];
  if (header === undefined) return undefined;
  return header.split(',').map((coding) => coding.split(';', 1)[0]!.trim()).filter((coding) => coding !== '');
}

/**
 * A Transfer-Encoding this server cannot read the body of. chunked is the only coding implemented: another one
 * before it is a 501 (RFC 9112 section 6.1); a list that does not end in chunked leaves the body's length unknown,
 * a 400 with the connection closed (section 6.3). The parser refuses the latter too, but only after this answer.
 * In an HTTP/1.0 request any Transfer-Encoding is faulty framing: a 400, the connection closed (section 6.1).
 */
function unreadableTransfer(raw: IncomingMessage): HttpError | undefined {
  const codings = transferCodings(raw);
  if (codings === undefined) return undefined;
  // HTTP/1.0 has no transfer codings: its framing is faulty, whatever the header says (RFC 9112 section 6.1).
  if (!isHttp11(raw)) {
    return new HttpError(400, [
      'an HTTP/1.0 request cannot use Transfer-Encoding (HTTP/1.0 has no transfer codings, so where its body ends is unknown); send it as HTTP/1.1, or with Content-Length alone',
    ], {}, { Connection: 'close' });
  }
  if (codings.at(-1)?.toLowerCase() !== 'chunked') {
    return new HttpError(400, [
      `Transfer-Encoding ${codings.join(', ')} does not end in chunked, so where the body ends is unknown; send the body with Content-Length, or with Transfer-Encoding: chunked`,
    ], {}, { Connection: 'close' });
  }
  const other = codings.filter((coding) => coding.toLowerCase() !== 'chunked');
  if (other.length === 0) return undefined;
  // Read as chunked alone, the body would be taken for the bytes the other codings made of it.
  return new HttpError(501, [
    `Transfer-Encoding ${other.join(', ')} is not supported; send the body with Content-Length, or with Transfer-Encoding: chunked alone`,
  ]);
}

// An empty Host is valid (a target without an authority); HTTP/1.0 has none.
const missesHost = (raw: IncomingMessage): boolean => isHttp11(raw) && raw.headers.host === undefined;

/** An `Expect` other than 100-continue, which HTTP/1.0 has none of (RFC 9110 section 10.1.1). */
const unmetExpectation = (raw: IncomingMessage): string | undefined =>
  isHttp11(raw) && raw.headers.expect !== undefined && !CONTINUE_RE.test(raw.headers.expect) ? raw.headers.expect : undefined;

/** What refuses a request whatever its route, before any route runs. */
function refusalBeforeRoute(request: FastifyRequest): HttpError | undefined {
  const raw = request.raw;
  // Before anything the headers say: under another version they may mean something else, or nothing.
  if (!isSpokenVersion(raw)) return new HttpError(505, [unsupportedVersion(raw.httpVersion)], {}, { Connection: 'close' });
  if (request.url.length > MAX_URL_LENGTH) return urlTooLong(request.url);
  const hosts = hostLines(raw);
  if (hosts > 1) {
    // Which one names the server is anyone's guess, and two parts of a chain may guess differently (RFC 9112 section 3.2).
    return new HttpError(400, [`the request has ${hosts} Host headers; send exactly one (RFC 9112 section 3.2)`]);
  }
  if (missesHost(raw)) {
    return new HttpError(400, ['an HTTP/1.1 request needs a Host header (RFC 9112 section 3.2); send Host: with the server\'s host and port']);
  }
  const expectation = unmetExpectation(request.raw);
  if (expectation !== undefined) {
    return new HttpError(417, [`Expect: ${expectation} cannot be met; the only expectation this server knows is 100-continue`]);
  }
  return unreadableTransfer(raw);
}

/**
 * A Content-Encoding other than identity: read as it is, a gzip body would be taken for the bytes it compresses
 * (RFC 9110 section 15.5.16). It is a fault of the body, so it is refused where the body is about to be read: after
 * every check that needs no body (the token, the client at the token endpoint, the upload address), so a request
 * without valid credentials gets its 401 whatever its body (docs/service-decisions.md §5), yet before any byte of
 * the body is read or parsed, and before "100 Continue" invites it.
 */
function unsupportedCoding(request: FastifyRequest): HttpError | undefined {
  const coding = request.headers['content-encoding'];
  if (coding === undefined || coding.trim().toLowerCase() === 'identity') return undefined;
  return new HttpError(415, [`Content-Encoding ${coding} is not supported; send the body uncompressed`], {}, { 'Accept-Encoding': 'identity' });
}

export function installErrorHandling(app: FastifyInstance, logger: Logger): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Trace-Id', request.id);
    done(refusalBeforeRoute(request));
  });
  // preParsing runs after every onRequest hook, the routes' own (token, client, upload address) included, and before
  // any body parser; this is the first preParsing hook, so it also comes before "100 Continue" (expect-continue.ts).
  // An unknown route never gets here: it is answered 404 or 405 before (unknown-routes.ts).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const refusal = unsupportedCoding(request);
    if (refusal) done(refusal);
    else done(null, payload);
  });

  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      void reply.code(error.statusCode).headers(error.headers);
      // Every 500 carries its trace id in the body, also one a route or an injected fault chose to answer.
      const extra = error.statusCode === 500 ? { traceId: request.id, ...error.extra } : { ...oauthExtra(request, error.statusCode), ...error.extra };
      return errorBody(error.statusCode, error.messages, extra);
    }
    const fe = error as FastifyError;
    const known = fe.code ? FASTIFY_STATUS[fe.code] : undefined;
    if (known) {
      const type = request.headers['content-type'];
      let message = known[1];
      if (known[0] === 415 && type) {
        const takes = routedPath(request.url) === TOKEN_PATH ? 'application/x-www-form-urlencoded' : 'application/json (or a +json type)';
        message = `${known[1]} ${type}; this endpoint takes ${takes}`;
      }
      if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') message = `${known[1]}: at most ${sizeText(request.routeOptions.bodyLimit)}`;
      return reply.code(known[0]).send(errorBody(known[0], [message], oauthExtra(request, known[0])));
    }
    if (error instanceof SyntaxError || (fe.statusCode === 400 && /JSON/i.test(error.message))) {
      return reply.code(400).send(errorBody(400, [`the body is not valid JSON: ${error.message}`], oauthExtra(request, 400)));
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.code(fe.statusCode).send(errorBody(fe.statusCode, [error.message], oauthExtra(request, fe.statusCode)));
    }
    logger.error(`trace ${request.id}: ${request.method} ${request.url}: ${error.stack ?? error.message}`);
    return reply
      .code(500)
      .send(errorBody(500, [`unexpected server failure; contact support with trace id ${request.id}`], { traceId: request.id }));
  });
}
