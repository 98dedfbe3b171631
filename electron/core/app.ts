/**
 * The app object: composes settings, keychain, API client, watcher and upload queue into the one object
 * the desktop bridge and the headless command expose. It emits typed events for the UI and the CLI.
 */
import type { DeliveryAttempt, RecordKind } from '../../shared';
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

export type AppEvents = {
  /** A job changed state. */
  job: Job;
  progress: JobProgress;
  /** A job finished and its file was filed away. */
  result: Job;
  batch: BatchJob;
  /** The watched folder disappeared or came back. */
  folder: { folder: string; present: boolean };
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
  on: ReturnType<typeof createTypedEmitter<AppEvents>>['on'];
  off: ReturnType<typeof createTypedEmitter<AppEvents>>['off'];
};

export function createPayrollApp(options: AppOptions): PayrollApp {
  const logger = options.logger ?? createLogger('app');
  const events = createTypedEmitter<AppEvents>((error) => logger.error(`an event listener failed: ${String(error)}`));
  const current = () => options.settings.get();
  const profile = options.profile ?? current().activeProfile;
  const baseUrl = requireBaseUrl(current(), profile, options.baseUrl);
  const proxy = current().proxy;
  const api: ApiClient = createApiClient({
    baseUrl,
    credentials: options.credentials ?? (() => resolveCredentials({ profile, settings: current(), store: options.secrets })),
    ...(proxy ? { proxy } : {}),
    logger: logger.child('api'),
  });
  const queue: UploadQueue = createUploadQueue({
    dataDir: options.dataDir, api, settings: current, logger: logger.child('queue'), ...(options.retry ? { retry: options.retry } : {}),
  });
  for (const name of ['job', 'progress', 'result', 'batch', 'error'] as const) {
    queue.on(name, (payload) => events.emit(name, payload as never));
  }
  let watcher: FolderWatcher | undefined;

  async function stopWatching(): Promise<void> {
    const w = watcher;
    watcher = undefined;
    await w?.stop();
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
      w.on('stable', (file) => queue.add(file));
      w.on('error', (error) => events.emit('error', error));
      w.on('folder', ({ present }) => events.emit('folder', { folder, present }));
      watcher = w;
      await w.start();
      return w;
    },
    stopWatching,
    async stop() {
      await stopWatching();
      await queue.stop();
      api.close();
      events.clear();
    },
    sendBatch: (kind, records) => queue.sendBatch(kind, records),
    jobs: (limit) => queue.jobs(limit),
    batches: (limit) => queue.batches(limit),
    failures: () => queue.failures(),
    isIdle: () => queue.isIdle(),
    idle: () => queue.idle(),
    listDeliveries: (filter) => api.listDeliveries(filter),
    getDelivery: (id) => api.getDelivery(id),
    on: events.on,
    off: events.off,
  };
}
