/**
 * The handlers of the bridge contract, transport-free: the Electron engine (over IPC) and browser mode (over HTTP)
 * both call `call(method, request)`. Every request is validated with its schema first; every failure comes back as
 * the plain error envelope, never as a thrown Error.
 */
import type { z } from 'zod';
import {
  BridgeError, bridgeMethods, invalidArgument, isBridgeMethod, type BridgeMethodName, type BridgeReply, type BridgeResponse,
  type SettingsView,
} from '../../../shared/bridge';
import type { SettingsPatch } from '../../../shared/settings.schema';
import { describeError } from '../../lib/fs-errors';
import { createLogger, type Logger } from '../../lib/logger';
import { followImportResults } from '../queue/import-results';
import { openJobQuery, type JobQuery } from '../queue/job-query';
import { ConflictError, UnsupportedError, type Session } from '../session';
import { sendBatch } from './batch-send';
import { toEnvelope } from './error-envelope';
import { errorFileOf, isFileAt, readErrorFile, requeueJob, requireJob } from './job-actions';
import {
  clearFaults, faultsOf, requestLogOf, runningLocalServer, setFaults, setWebhook, webhookOf,
} from './local-server-handlers';
import { toBatchView, toJobDetail, toJobView, toJobViewFor, waitingElsewhere, waitsForOf } from './views';

type Parsed<M extends BridgeMethodName> = z.output<(typeof bridgeMethods)[M]['request']>;
type Handlers = { [M in BridgeMethodName]: (request: Parsed<M>) => Promise<BridgeResponse<M>> | BridgeResponse<M> };

export type BridgeHandlers = {
  /** Validates, runs and answers; never rejects. `method` and `request` come from outside and are checked. */
  call(method: string, request: unknown): Promise<BridgeReply<BridgeMethodName>>;
  /**
   * Releases what the handlers opened (the history's read connection, the following of import results); the session
   * is the caller's to close.
   */
  close(): void;
};

export type BridgeHandlersOptions = {
  session: Session;
  logger?: Logger;
  /** Also validate every answer against its response schema (tests). */
  checkResponses?: boolean;
};

/** `null` removes a key over the bridge (JSON has no undefined); the settings store removes keys set to undefined. */
function nullsRemoved(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, nullsRemoved(v)]));
}

export function createBridgeHandlers(options: BridgeHandlersOptions): BridgeHandlers {
  const { session } = options;
  const logger = options.logger ?? createLogger('bridge');
  let history: JobQuery | undefined;
  const puttingBack = new Set<number>();
  // The screens' History shows what the local test server made of each file and batch: asked for once each, kept in
  // the journal (import-results.ts). Here, once per session the screens work on (the desktop engine, browser mode).
  const stopFollowing = followImportResults(session, logger.child('import-results'));

  const jobs = async (): Promise<JobQuery> => {
    // The queue creates the journal the history reads.
    await session.queue();
    history ??= openJobQuery(session.journalPath);
    return history;
  };
  const settingsView = (): SettingsView => ({ settings: session.settings(), file: session.settingsFile });

  const handlers: Handlers = {
    'settings.get': () => settingsView(),
    'settings.patch': async (patch) => {
      await session.updateSettings(nullsRemoved(patch) as SettingsPatch);
      return settingsView();
    },
    'profile.switch': async ({ profile }) => {
      await session.switchProfile(profile);
      return settingsView();
    },

    'credentials.set': ({ profile, clientId, clientSecret }) => session.credentials.set(profile, clientId, clientSecret),
    'credentials.status': ({ profile }) => session.credentials.status(profile),
    'credentials.delete': ({ profile }) => session.credentials.delete(profile),
    'credentials.test': ({ profile }) => session.credentials.test(profile),

    'watch.state': () => session.watch.state(),
    'watch.setFolder': async ({ folder }) => {
      try {
        return await session.watch.setFolder(folder);
      } catch (error) {
        // The settings name it watchedFolder; the request calls it folder.
        const envelope = toEnvelope(error);
        if (envelope.fields) envelope.fields = envelope.fields.map((f) => (f.path === 'watchedFolder' ? { ...f, path: 'folder' } : f));
        throw new BridgeError(envelope);
      }
    },
    'watch.browse': () => {
      throw new UnsupportedError('Choosing a folder in a dialog needs the desktop app; type the folder path instead');
    },
    'watch.start': () => session.watch.start(),
    'watch.pause': () => session.watch.pause(),
    'watch.resume': () => session.watch.resume(),
    'watch.stop': () => session.watch.stop(),

    'jobs.query': async (query) => {
      const states = query.states || query.outcomes ? [...(query.states ?? []), ...(query.outcomes ?? [])] : undefined;
      const window = (await jobs()).window({
        ...(states ? { states } : {}),
        ...(query.fileTypes ? { fileTypes: query.fileTypes } : {}),
        ...(query.foundSince !== undefined ? { foundSince: query.foundSince } : {}),
        ...(query.foundBefore !== undefined ? { foundBefore: query.foundBefore } : {}),
        ...(query.text ? { text: query.text } : {}),
        ...(query.finished !== undefined ? { finished: query.finished } : {}),
        sort: query.sort, offset: query.offset, limit: query.limit,
      });
      const current = session.uploadsGoTo();
      return { total: window.total, items: window.items.map((job) => toJobViewFor(job, current)) };
    },
    'jobs.get': async ({ id }) => {
      const job = requireJob(await session.queue(), id);
      return toJobDetail(job, { errorFile: await errorFileOf(job), archivedFileThere: await isFileAt(job.archivedPath) }, session.uploadsGoTo());
    },
    'jobs.retryNow': async ({ id }) => {
      const queue = await session.queue();
      const job = requireJob(queue, id);
      const waitsFor = waitsForOf(job, session.uploadsGoTo());
      if (waitsFor) throw new ConflictError(waitingElsewhere(job.name, waitsFor));
      const retried = queue.retryNow(id);
      if (!retried) throw new ConflictError(`${job.name} is not waiting to retry (state ${job.state})`);
      return toJobView(retried);
    },
    'jobs.requeue': async ({ id }) => {
      const queue = await session.queue();
      const job = requireJob(queue, id);
      // A second click while the first moves the file would find it gone half-way: one put-back of a job at a time.
      if (puttingBack.has(id)) throw new ConflictError(`${job.name} is being put back in the queue already`);
      puttingBack.add(id);
      try {
        // Put back for the service it was refused for: when uploads go elsewhere now, the answer says it waits for it.
        const again = toJobViewFor(await requeueJob(queue, job), session.uploadsGoTo());
        // Its refusal is over. Found again where it was, the notice board has dropped it already; back under a numbered
        // name (another file had taken its own) the file is found elsewhere, which the board cannot match.
        session.notices.dropAbout(id);
        return again;
      } finally {
        puttingBack.delete(id);
      }
    },
    'jobs.reveal': async ({ id }) => {
      const job = requireJob(await session.queue(), id);
      return { path: job.archivedPath ?? job.path, revealed: false };
    },
    'jobs.errorFile': async ({ id }) => readErrorFile(requireJob(await session.queue(), id)),

    'batches.send': ({ kind, records }) => sendBatch(session, kind, records),
    'batches.list': async ({ offset, limit }) => {
      const window = (await jobs()).batches(offset, limit);
      return { total: window.total, items: window.items.map(toBatchView) };
    },

    'deliveries.list': async (filter) => ({ items: await session.listDeliveries(filter) }),
    'deliveries.get': ({ id }) => session.getDelivery(id),
    'deliveries.redeliver': ({ id }) => session.redeliver(id),

    'notices.list': () => session.notices.list(),
    'notices.dismiss': ({ run, id }) => ({ dismissed: session.notices.dismiss(run, id) }),
    'notices.dismissAll': ({ run, upTo }) => ({ dismissed: session.notices.dismissAll(run, upTo) }),

    'localServer.state': () => session.localServer.state(),
    'localServer.start': ({ port }) => session.startLocalServer(port === undefined ? {} : { port }),
    'localServer.stop': () => session.stopLocalServer(),
    'localServer.credentials': () => {
      const { client } = runningLocalServer(session);
      return { clientId: client.clientId, clientSecret: client.clientSecret };
    },
    'localServer.webhook.get': () => webhookOf(runningLocalServer(session)),
    'localServer.webhook.set': ({ url, secret }) => setWebhook(runningLocalServer(session), url, secret),
    'localServer.requestLog': ({ limit }) => ({ items: requestLogOf(runningLocalServer(session), limit ?? 100) }),
    'localServer.faults.list': () => ({ rules: faultsOf(runningLocalServer(session)) }),
    'localServer.faults.set': ({ rules }) => ({ rules: setFaults(runningLocalServer(session), rules) }),
    'localServer.faults.clear': () => ({ rules: clearFaults(runningLocalServer(session)) }),
  };

  const run = async <M extends BridgeMethodName>(method: M, request: unknown): Promise<BridgeResponse<M>> => {
    const spec = bridgeMethods[method];
    const parsed = spec.request.safeParse(request ?? {});
    if (!parsed.success) throw invalidArgument(parsed.error, method);
    const handler = handlers[method] as (request: unknown) => Promise<BridgeResponse<M>> | BridgeResponse<M>;
    const result = await handler(parsed.data);
    if (options.checkResponses) {
      const checked = spec.response.safeParse(result);
      if (!checked.success) throw new Error(`${method} answered outside its schema: ${describeError(checked.error)}`);
    }
    return result;
  };

  return {
    async call(method, request) {
      if (!isBridgeMethod(method)) {
        return { ok: false, error: { name: 'BridgeError', code: 'unknown_method', message: `There is no bridge method "${method}"` } };
      }
      try {
        return { ok: true, result: await run(method, request) };
      } catch (error) {
        const envelope = toEnvelope(error);
        if (envelope.code === 'internal') logger.error(`${method} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
        return { ok: false, error: envelope };
      }
    },
    close() {
      stopFollowing();
      history?.close();
      history = undefined;
    },
  };
}
