/**
 * The app object: composes settings, keychain, API client, watcher and upload queue into the one object
 * the desktop bridge and the headless command expose. It emits typed events for the UI and the CLI.
 */
import type { DeliveryAttempt, ImportResult, RecordKind } from '../../shared';
import type { ProfileName, Settings } from '../../shared/settings.schema';
import type { Logger } from '../lib/logger';
import { createLogger } from '../lib/logger';
import type { ApiClient, DeliveriesFilter } from './api';
import { createApiClient } from './api';
import type { SecretStore } from './credentials';
import { resolveCredentials } from './credentials';
import type { BatchJob, BatchResult, Job, JobProgress, RetryPolicy, UploadQueue } from './queue';
import { createUploadQueue } from './queue';
import type { SettingsStore } from './settings';
import { requireBaseUrl } from './settings';
import type { FolderWatcher } from './watcher';
import { createFolderWatcher } from './watcher';
import { createTypedEmitter } from '../lib/typed-emitter';
import { describeError } from '../lib/fs-errors';
import { resolve } from 'node:path';
import { moveNoClobber } from './queue/archive';
import { createFolderClaims } from './queue/folder-claims';
import type { StableFile } from './watcher/stable-file';

export type AppEvents = {
  /** A job changed state. */
  job: Job;
  progress: JobProgress;
  /** A job finished and its file was filed away. */
  result: Job;
  batch: BatchJob;
  /** The watched folder disappeared or came back. */
  folder: { folder: string; present: boolean };
  /** A file in the watched folder that is not a CSV export (said once per file). */
  ignored: { path: string; name: string };
  /** Something to tell the clerk once ("resuming 2 uploads from the last run"). */
  notice: string;
  error: Error;
};

export type AppOptions = {
  /** The application-data folder: the upload journal lives here. */
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  /** Default: the settings' active profile. */
  profile?: ProfileName;
  /** Overrides the profile's base URL. */
  baseUrl?: string;
  /** Overrides env/keychain credentials (the embedded local server hands in its own client). */
  credentials?: () => Promise<{ clientId: string; clientSecret: string }>;
  retry?: Partial<RetryPolicy>;
  logger?: Logger;
  /**
   * How the journal names the service when `baseUrl` changes from run to run (the embedded local server listens on a
   * new port each time but is the same service). Default: the base URL.
   */
  serviceUrl?: string;
  /** false: file jobs are neither taken nor resumed and no data-folder lock is taken (the `send` command). Default true. */
  files?: boolean;
  /** A claim of a dead uploader in a shared folder is taken over after this long. Default 120 s. */
  claimTimeoutMs?: number;
};

export type PayrollApp = {
  readonly profile: ProfileName;
  readonly baseUrl: string;
  settings(): Settings;
  /** Opens the journal and resumes unfinished work. */
  start(): Promise<void>;
  /** Watches a folder (replacing any earlier watch) and feeds stable files to the queue. */
  watch(folder: string): Promise<FolderWatcher>;
  stopWatching(): Promise<void>;
  stop(): Promise<void>;
  sendBatch(kind: RecordKind, records: unknown): Promise<BatchResult>;
  jobs(limit?: number): Job[];
  batches(limit?: number): BatchJob[];
  failures(): Job[];
  isIdle(): boolean;
  idle(): Promise<void>;
  listDeliveries(filter?: DeliveriesFilter): Promise<DeliveryAttempt[]>;
  getDelivery(id: number): Promise<DeliveryAttempt>;
  /**
   * The processing result of an import, once processing has ended (PROCESSED or REJECTED), polling every second for
   * up to `waitMs`; undefined if it is still queued then. Local server only (`/local/v1/imports/{id}`).
   */
  importResult(id: string, waitMs?: number): Promise<ImportResult | undefined>;
  /** Unfinished jobs of this run's service: what Ctrl-C interrupts (they resume at the next start). */
  unfinished(): Job[];
  on: ReturnType<typeof createTypedEmitter<AppEvents>>['on'];
  off: ReturnType<typeof createTypedEmitter<AppEvents>>['off'];
};

export function createPayrollApp(options: AppOptions): PayrollApp {
  const logger = options.logger ?? createLogger('app');
  const events = createTypedEmitter<AppEvents>((error) => logger.error(`an event listener failed: ${String(error)}`));
  const current = () => options.settings.get();
  const profile = options.profile ?? current().activeProfile;
  const baseUrl = requireBaseUrl(current(), profile, options.baseUrl, options.settings.path);
  const proxy = current().proxy;
  const api: ApiClient = createApiClient({
    baseUrl,
    credentials: options.credentials ?? (() => resolveCredentials({ profile, settings: current(), store: options.secrets })),
    ...(proxy ? { proxy } : {}),
    logger: logger.child('api'),
  });
  const queue: UploadQueue = createUploadQueue({
    dataDir: options.dataDir, api, settings: current, logger: logger.child('queue'), ...(options.retry ? { retry: options.retry } : {}),
    service: { profile, baseUrl: (options.serviceUrl ?? baseUrl).replace(/\/+$/, '') }, files: options.files ?? true,
  });
  for (const name of ['job', 'progress', 'result', 'batch', 'error', 'notice'] as const) {
    queue.on(name, (payload) => events.emit(name, payload as never));
  }
  const claims = createFolderClaims({
    dataDir: options.dataDir, logger: logger.child('claims'),
    ...(options.claimTimeoutMs !== undefined ? { timeoutMs: options.claimTimeoutMs } : {}),
  });
  let watcher: FolderWatcher | undefined;

  /** Journals a claimed file; when the journal cannot be written (a full disk) the watcher offers it again later. */
  const take = (file: StableFile, from: FolderWatcher | undefined, refused?: string): void => {
    try {
      if (refused) queue.refuse(file, refused);
      else queue.add(file);
    } catch (error) {
      // The file stays claimed in .processing/; our own unjournaled claims are taken up again at the next start, and
      // the sweep offers the file again (the claim is given back to the folder first).
      const message = `${file.name}: the upload journal could not be written (${describeError(error)}); the file is offered again at the next sweep`;
      logger.error(message);
      events.emit('error', new Error(message, { cause: error }));
      if (file.claimedFrom) {
        void moveNoClobber(file.path, file.claimedFrom).then(
          () => from?.offerAgain(file.claimedFrom as string),
          () => undefined,
        );
      } else {
        from?.offerAgain(file.path);
      }
    }
  };

  /** Claims the file inside the shared folder before anything reads it, so each file has one uploader. */
  const claiming = new Set<Promise<void>>();
  const claimAndTake = (file: StableFile, from: FolderWatcher, refused?: string): void => {
    const run = claims.claim(file).then((claimed) => {
      if (!claimed) {
        logger.debug(`${file.name} was taken by another uploader (or moved) before this one claimed it`);
        return;
      }
      take(claimed, from, refused);
    }, (error: unknown) => {
      events.emit('error', new Error(`${file.name}: it could not be claimed for upload (${describeError(error)}); it is tried again at the next sweep`, { cause: error }));
      from.offerAgain(file.path);
    });
    claiming.add(run);
    void run.finally(() => claiming.delete(run));
  };
  /** Claims under way end in the journal (or back in the folder) before the app counts as idle. */
  const claimsSettled = async (): Promise<void> => {
    while (claiming.size > 0) await Promise.allSettled([...claiming]);
  };

  async function stopWatching(): Promise<void> {
    const w = watcher;
    watcher = undefined;
    await w?.stop();
    await claimsSettled();
  }

  return {
    profile,
    baseUrl,
    settings: current,
    start: () => queue.start(),
    async watch(folder) {
      await stopWatching();
      const s = current();
      const w = createFolderWatcher({
        folder, stabilityMs: s.stabilityMs, sweepIntervalMs: s.sweepIntervalMs, usePolling: s.usePolling,
        pollIntervalMs: s.pollIntervalMs, logger: logger.child('watcher'),
      });
      w.on('stable', (file) => claimAndTake(file, w));
      w.on('refused', (file) => claimAndTake({ path: file.path, name: file.name, size: 0, mtimeMs: 0 }, w, file.reason));
      w.on('ignored', (file) => events.emit('ignored', file));
      w.on('error', (error) => events.emit('error', error));
      w.on('folder', ({ present }) => events.emit('folder', { folder, present }));
      watcher = w;
      await claims.watch(resolve(folder), (claimed) => take(claimed, watcher), (path) => queue.knows(path)).catch((error: unknown) => {
        events.emit('error', new Error(`the claim folder in ${folder} cannot be used: ${describeError(error)}`, { cause: error }));
      });
      await w.start();
      return w;
    },
    stopWatching,
    async stop() {
      await stopWatching();
      await claims.stop();
      await queue.stop();
      api.close();
      events.clear();
    },
    sendBatch: (kind, records) => queue.sendBatch(kind, records),
    jobs: (limit) => queue.jobs(limit),
    batches: (limit) => queue.batches(limit),
    failures: () => queue.failures(),
    isIdle: () => claiming.size === 0 && queue.isIdle(),
    async idle() {
      await claimsSettled();
      await queue.idle();
    },
    listDeliveries: (filter) => api.listDeliveries(filter),
    getDelivery: (id) => api.getDelivery(id),
    async importResult(id, waitMs = 60_000) {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const result = await api.getImport(id);
        if (result.status === 'PROCESSED' || result.status === 'REJECTED') return result;
        if (Date.now() >= deadline) return undefined;
        await new Promise((done) => setTimeout(done, 1_000));
      }
    },
    unfinished: () => queue.unfinished(),
    on: events.on,
    off: events.off,
  };
}
