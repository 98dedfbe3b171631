/**
 * The request log: every request (404s, errors, dropped ones and those the HTTP parser refused too) as one row
 * of request_log, written after the answer, in batches, in the server's group commit (one transaction with the
 * imports and processing of the same turn). Secrets are never kept: headers
 * are not stored at all, tokens and client secrets are masked, uploaded files are not stored.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerClaims } from '../auth/bearer';
import type { ServerContext } from '../context';
import type { Db } from '../db/database';
import { MAX_URL_LENGTH, type ParserRefusal } from '../http/error-handling';
import { bodyPlaceholder, boundForm, boundJson, boundText, maskQuerySecrets } from './log-bodies';
import type { RequestLogEntry, RequestsQuery } from './local-schemas';

/** The log keeps the newest this many rows. */
export const REQUEST_LOG_KEEP = 10_000;
const TRIM_EVERY = 500;

type Row = [at: string, method: string, path: string, status: number, durationMs: number, traceId: string,
  clientId: string | null, requestBody: string | null, responseBody: string | null];

export type RequestLog = {
  /** Writes the rows still waiting for their batch. */
  flush(): void;
  /** Newest first: the client's own requests and those of no known client. */
  list(clientId: string, query: RequestsQuery): RequestLogEntry[];
};

type Writer = { log: RequestLog; add(row: Row): void; close(): void };

const logs = new WeakMap<ServerContext, Writer>();

function createWriter(ctx: ServerContext): Writer {
  const db: Db = ctx.db;
  const insert = db.prepare(
    `INSERT INTO request_log (at, method, path, status, duration_ms, trace_id, client_id, request_body, response_body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const trim = db.prepare('DELETE FROM request_log WHERE id <= (SELECT MAX(id) FROM request_log) - ?');
  const writeAll = (rows: Row[]) => {
    for (const row of rows) insert.run(...row);
  };
  let pending: Row[] = [];
  let scheduled = false;
  let sinceTrim = 0;
  let closed = false;

  /** Writes the waiting rows; called inside the group commit's transaction, or on its own. */
  const flush = () => {
    scheduled = false;
    if (closed || pending.length === 0) return;
    const rows = pending;
    pending = [];
    try {
      writeAll(rows);
      sinceTrim += rows.length;
      if (sinceTrim >= TRIM_EVERY) {
        sinceTrim = 0;
        trim.run(REQUEST_LOG_KEEP);
      }
    } catch (error) {
      ctx.logger.warn(`request log: ${rows.length} row(s) not written: ${(error as Error).message}`);
    }
  };
  trim.run(REQUEST_LOG_KEEP);

  const log: RequestLog = {
    flush,
    list(clientId, query) {
      const where = ['(client_id = ? OR client_id IS NULL)'];
      const params: (string | number)[] = [clientId];
      if (query.pathPrefix !== undefined) {
        where.push('substr(path, 1, ?) = ?');
        params.push(query.pathPrefix.length, query.pathPrefix);
      }
      if (query.status !== undefined) {
        where.push('status = ?');
        params.push(query.status);
      }
      const rows = db.prepare(`SELECT * FROM request_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`)
        .all(...params, query.limit) as {
          id: number; at: string; method: string; path: string; status: number; duration_ms: number; trace_id: string;
          client_id: string | null; request_body: string | null; response_body: string | null;
        }[];
      return rows.map((r) => ({
        id: r.id, at: r.at, method: r.method, path: r.path, status: r.status, durationMs: r.duration_ms,
        traceId: r.trace_id, clientId: r.client_id, requestBody: r.request_body, responseBody: r.response_body,
      }));
    },
  };
  return {
    log,
    add(row) {
      if (closed) return;
      pending.push(row);
      if (!scheduled) {
        scheduled = true;
        // Written in the same transaction as the imports and processing of the next turn: one commit for all.
        void ctx.writes.run(flush);
      }
    },
    close() {
      flush();
      closed = true;
    },
  };
}

const contentLength = (request: FastifyRequest) => {
  const header = request.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
};

function requestBodyText(request: FastifyRequest): string | null {
  const body: unknown = request.body;
  const type = request.headers['content-type'];
  const size = contentLength(request);
  const unstored = () => bodyPlaceholder(size === null ? undefined : String(size), type);
  if (request.url.startsWith('/uploads/')) return size === 0 ? null : bodyPlaceholder(request.headers['content-length'], type);
  if (body === undefined || body === null) return size ? bodyPlaceholder(String(size), type) : null;
  if (typeof body === 'string') return boundText(body, size);
  if (Buffer.isBuffer(body) || typeof body !== 'object' || typeof (body as { pipe?: unknown }).pipe === 'function') {
    return unstored();
  }
  if (type && /^application\/x-www-form-urlencoded/i.test(type)) return boundForm(body as Record<string, unknown>, size);
  try {
    return boundJson(body, size);
  } catch {
    // JSON.parse takes nesting that JSON.stringify cannot write back (a RangeError from a million `[`): the row is
    // still written, with what is kept of a body that is not stored.
    return unstored();
  }
}

function responseBodyText(payload: unknown): string | null {
  if (typeof payload === 'string') return payload === '' ? null : boundText(payload);
  if (Buffer.isBuffer(payload)) return payload.length === 0 ? null : boundText(payload.toString('utf8', 0, 8192), payload.length);
  return null;
}

const responses = new WeakMap<FastifyRequest, unknown>();
// A request is logged once: at its answer, when fault injection dropped it, or when its client went away first.
const logged = new WeakSet<FastifyRequest>();
const started = new WeakMap<FastifyRequest, bigint>();
const startedAt = (request: FastifyRequest) => started.get(request) ?? process.hrtime.bigint();

function rowOf(request: FastifyRequest, reply: FastifyReply, status: number): Row {
  // A router refusal's reply has no start time.
  const elapsed = Number.isFinite(reply.elapsedTime) ? reply.elapsedTime : 0;
  const clientId = request.clientId ?? null;
  return [
    new Date(Date.now() - elapsed).toISOString(), request.method, maskQuerySecrets(request.url, 'path'), status, Math.round(elapsed),
    request.id, clientId,
    // A row of no known client is shown to every client: what was sent is kept as its size and type only.
    clientId === null ? sharedRowBody(request) : requestBodyText(request),
    responseBodyText(responses.get(request)),
  ];
}

function sharedRowBody(request: FastifyRequest): string | null {
  const size = contentLength(request);
  return size || request.headers['transfer-encoding'] ? bodyPlaceholder(size ? String(size) : undefined, request.headers['content-type']) : null;
}

/**
 * Gives a request no route claimed (a 404, a 405) to the client of its bearer token, when that token is valid,
 * so its row is shown to that client only. Requests a route answered have their client already.
 */
function claimRequest(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
  // A 401 is a token the route's guard has refused already.
  if (request.clientId !== undefined || reply.statusCode === 401 || !/^Bearer\s/i.test(request.headers.authorization ?? '')) {
    return undefined;
  }
  return bearerClaims(ctx, request).then((claims) => {
    request.clientId = claims.clientId;
  }, () => undefined);
}

/** Records every request into request_log; installed after the fault hook and before the routes. */
export function installRequestLog(app: FastifyInstance, ctx: ServerContext): void {
  const writer = createWriter(ctx);
  logs.set(ctx, writer);

  app.addHook('onRequest', (request, _reply, done) => {
    started.set(request, process.hrtime.bigint());
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    responses.set(request, payload);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const pending = noteAnswered(ctx, request, reply);
    if (pending) void pending.then(() => done(), done);
    else done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    if (!logged.has(request)) {
      logged.add(request);
      // Status 0: no answer reached the client.
      const reply = { elapsedTime: Number(process.hrtime.bigint() - startedAt(request)) / 1e6 } as FastifyReply;
      writer.add(rowOf(request, reply, 0));
    }
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    writer.close();
    done();
  });
}

/**
 * Records a request the HTTP parser refused before Fastify saw it (a 431, a malformed request): its method and path
 * when its request line could be read from what had arrived (empty otherwise), no client, no request body.
 */
export function noteRefused(ctx: ServerContext, refusal: ParserRefusal): void {
  const line = refusal.head?.toString('latin1', 0, MAX_URL_LENGTH + 64).split('\r\n', 1)[0] ?? '';
  const [, method = '', path = ''] = /^([A-Za-z]{1,20}) (\S+)/.exec(line) ?? [];
  logs.get(ctx)?.add([
    new Date().toISOString(), method, maskQuerySecrets(path.slice(0, MAX_URL_LENGTH), 'path'), refusal.status, 0, refusal.traceId,
    null, null, boundText(refusal.body),
  ]);
}

/**
 * Records an answered request, once: from the onResponse hook, and for the router's own refusals (a bad
 * percent-encoding), which no hook sees; `payload` is the answer's body when the onSend hook did not see it.
 */
export function noteAnswered(
  ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, payload?: string,
): Promise<void> | undefined {
  const writer = logs.get(ctx);
  if (!writer || logged.has(request)) return undefined;
  logged.add(request);
  if (payload !== undefined) responses.set(request, payload);
  const add = () => writer.add(rowOf(request, reply, reply.statusCode));
  // Synchronous when the request's client is known already (every request a route answered): no promise turn.
  const claiming = claimRequest(ctx, request, reply);
  if (claiming) return claiming.then(add);
  add();
  return undefined;
}

/** Records a request that fault injection dropped without an answer (status 0). */
export function noteDropped(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply): void {
  if (logged.has(request)) return;
  logged.add(request);
  logs.get(ctx)?.add(rowOf(request, reply, 0));
}

/** The request log of a server, for the /local/v1/requests endpoint. */
export function requestLog(ctx: ServerContext): RequestLog | undefined {
  return logs.get(ctx)?.log;
}
