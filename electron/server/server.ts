/** Starts the local server: the whole service API on one address, persisted in one SQLite file. */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { SCOPES } from '../../shared';
import { createLogger } from '../lib/logger';
import { acquireProcessLock } from '../lib/process-lock';
import { listClients, removeClientsExcept, upsertClient } from './auth/clients';
import type { ServerContext } from './context';
import { makePrivateDir } from '../lib/private-files';
import { metaValue, openDatabase } from './db/database';
import { createGroupCommit } from './db/group-commit';
import { toImportResult } from './db/imports-repo';
import { processUploadedFile } from './files/csv-processing';
import { fileRoutes } from './files/file-routes';
import {
  HTTP_SERVER_OPTIONS, MAX_URL_LENGTH, clientErrorHandler, connectRefusal, frameworkErrors, installErrorHandling, newTraceId,
} from './http/error-handling';
import { BODY_STALL_MS, installBodyStall } from './http/body-stall';
import { installExpectContinue } from './http/expect-continue';
import { installJsonBody } from './http/json-body';
import { maskedLogger } from './http/masked-logger';
import { HttpError } from './http/http-error';
import { installUnknownRoutes } from './http/unknown-routes';
import { installFaults } from './local/faults';
import { localRoutes } from './local/local-routes';
import { installRequestLog, noteAnswered, noteRefused } from './local/request-log';
import type { ServerOptions } from './options';
import { SERVER_DEFAULTS } from './options';
import { processJsonBatch } from './processing/json-batches';
import { createProcessor } from './processing/processor';
import { importRoutes } from './routes/import-routes';
import { oauthRoutes } from './routes/oauth-routes';
import { createDeliveryEngine } from './webhooks/delivery-engine';
import { deliveryRoutes } from './webhooks/delivery-routes';
import { applyWebhookFlags, forgetRemovedClients } from './webhooks/webhook-flags';

export type RunningServer = {
  url: string;
  port: number;
  app: FastifyInstance;
  ctx: ServerContext;
  close(): Promise<void>;
};

/** The data folder's lock file: one local server at a time works on a data folder. */
export const SERVER_LOCK_FILE = 'server.lock';

/** How long a stop waits for requests in flight before cutting their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

export type StartOptions = Partial<ServerOptions> & { dataDir: string };

function configureClients(ctx: ServerContext): void {
  const { db, options } = ctx;
  const notice = options.notice ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Clients given at start are the whole set: one left out is removed, and its tokens stop working.
  if (options.clients.length > 0) removeClientsExcept(db, options.clients.map((c) => c.id));
  for (const client of options.clients) upsertClient(db, client);
  if (options.clients.length === 0 && listClients(db).length === 0) {
    const secret = randomBytes(24).toString('base64url');
    upsertClient(db, { id: 'local-client', secret, scopes: [...SCOPES] });
    notice(`created client "local-client" with all scopes; its secret (shown only this once): ${secret}`);
  }
  forgetRemovedClients(db);
  if (options.webhook) {
    const targets = options.clients.length > 0 ? options.clients.map((c) => c.id) : listClients(db).map((c) => c.id);
    // Only where the flags are new to a client: a restart with the same flags keeps each client's own registration.
    applyWebhookFlags(db, options.webhook, targets, notice);
  }
}

/**
 * One server per data folder: a second one on the same SQLite file would process imports and send webhooks twice (and
 * a second `watch --env local` would repoint the first one's Local settings at itself before failing). The folder's
 * lock is held from before the database is opened until the server has closed, or its start failed.
 */
export async function startServer(input: StartOptions): Promise<RunningServer> {
  makePrivateDir(input.dataDir);
  // A lock of another computer is watched for up to a minute before it is judged: the start says why it waits.
  const logger = input.logger ?? createLogger('server');
  const lock = await acquireProcessLock(join(input.dataDir, SERVER_LOCK_FILE), 'local server', '--data-dir, or PAYROLL_DATA_DIR for the embedded one',
    { say: (message) => logger.warn(message) });
  let server: RunningServer;
  try {
    server = await startWithFolder(input);
  } catch (error) {
    await lock.release();
    throw error;
  }
  return { ...server, close: () => server.close().finally(() => lock.release()) };
}

async function startWithFolder(input: StartOptions): Promise<RunningServer> {
  const options: ServerOptions = {
    ...SERVER_DEFAULTS,
    retryDelaysMs: [...SERVER_DEFAULTS.retryDelaysMs],
    clients: [],
    ...input,
  };
  const logger = maskedLogger(options.logger ?? createLogger('server'));
  const db = openDatabase(options.dataDir);
  const uploadsDir = join(options.dataDir, 'uploads');
  makePrivateDir(uploadsDir);
  let baseUrl = '';

  const writes = createGroupCommit(db);
  const deliveries = createDeliveryEngine({
    db, logger: logger.child('webhooks'), retryDelaysMs: options.retryDelaysMs, timeoutMs: options.deliveryTimeoutMs,
    allowRemoteWebhooks: options.allowRemoteWebhooks === true,
    ...(options.deliveryFailed ? { gaveUp: options.deliveryFailed } : {}),
  });
  const ctx: ServerContext = {
    db, options, logger, uploadsDir, receiving: new Set(),
    keys: {
      jwt: Buffer.from(metaValue(db, 'jwt_key', () => randomBytes(32).toString('base64')), 'base64'),
      upload: Buffer.from(metaValue(db, 'upload_key', () => randomBytes(32).toString('base64')), 'base64'),
    },
    baseUrl: () => baseUrl,
    deliveries,
    writes,
    processor: createProcessor({
      db, writes, logger: logger.child('processor'),
      handlers: { json: (row) => processJsonBatch(db, row), file: (row) => processUploadedFile(ctx, row) },
      onFinished: (row) => deliveries.importFinished(row.client_id, toImportResult(row)),
    }),
  };

  const app = Fastify({
    logger: false,
    genReqId: newTraceId,
    // A path parameter may be as long as a URL may be: the route's own checks answer an overlong id.
    routerOptions: { maxParamLength: MAX_URL_LENGTH },
    frameworkErrors: frameworkErrors((request, reply, body) => void noteAnswered(ctx, request, reply, body)),
    // Idle keep-alive connections close at once; requests in flight (an upload) may finish: see close().
    forceCloseConnections: false,
    // Fastify's own 503 during a stop is a bare body without X-Trace-Id; the hook below answers it instead.
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(logger, (refusal) => noteRefused(ctx, refusal)),
    ...(options.tls
      ? { https: { cert: readFileSync(options.tls.cert), key: readFileSync(options.tls.key), minVersion: 'TLSv1.2' as const, ...HTTP_SERVER_OPTIONS } }
      : { http: HTTP_SERVER_OPTIONS }),
  });
  installErrorHandling(app, logger);
  installExpectContinue(app);
  installBodyStall(app, options.bodyStallMs ?? BODY_STALL_MS);
  app.server.on('connect', connectRefusal((refusal) => noteRefused(ctx, refusal)));
  // Answers finished during a stop end their connection, so a keep-alive client does not hold the stop up.
  let stopping = false;
  app.addHook('preClose', (done) => {
    stopping = true;
    done();
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(stopping ? new HttpError(503, ['the server is stopping; send the request again once it is back']) : undefined);
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (stopping) void reply.header('Connection', 'close');
    done(null, payload);
  });
  // Only JSON bodies reach the JSON endpoints: text/plain would otherwise be read as a string and answered
  // 400 "not an array" instead of 415. The token and upload routes add their own parsers.
  app.removeContentTypeParser('text/plain');
  installJsonBody(app);
  installFaults(app, ctx);
  installRequestLog(app, ctx);
  installUnknownRoutes(app);
  await app.register(oauthRoutes(ctx));
  await app.register(importRoutes(ctx));
  await app.register(fileRoutes(ctx));
  await app.register(deliveryRoutes(ctx));
  await app.register(localRoutes(ctx));

  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    db.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = ['0.0.0.0', '::', ''].includes(options.host) ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  baseUrl = `${options.tls ? 'https' : 'http'}://${host}:${port}`;
  // Only once the address is held: a start that fails (a busy port) must not have printed a secret "shown only this
  // once" that the next start then keeps silently, nor removed clients left out of its --client list. No request is
  // read before this runs (connections are accepted on a later turn of the event loop).
  configureClients(ctx);
  ctx.processor.resume();
  deliveries.start();

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl, port, app, ctx,
    close() {
      closing ??= (async () => {
        // A graceful stop lets requests in flight finish, but a client that stalls cannot hold it up for ever.
        const force = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await app.close().finally(() => clearTimeout(force));
        await ctx.processor.stop();
        await deliveries.stop();
        db.close();
      })();
      return closing;
    },
  };
}
