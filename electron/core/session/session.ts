/**
 * The session service: one object the CLI, the Electron engine and browser mode all use. Its parts start on demand:
 * the upload queue and its journal, the folder watcher, an API client per profile, the embedded local server. It never
 * throws for a missing base URL at birth: a part that needs one answers NotConfiguredError when it is asked for.
 */
import { join } from 'node:path';
import type { DeliveryAttempt, RecordKind } from '../../../shared';
import type { FolderState, LocalServerState } from '../../../shared/bridge';
import type { ProfileName, Settings, SettingsPatch } from '../../../shared/settings.schema';
import { baseUrlOf } from '../../../shared/settings.schema';
import { describeError } from '../../lib/fs-errors';
import { createLogger, type Logger } from '../../lib/logger';
import { createTypedEmitter, type TypedEmitter } from '../../lib/typed-emitter';
import type { RunningServer, StartOptions } from '../../server/server';
import { createApiClient, type ApiClient, type DeliveriesFilter } from '../api';
import { resolveCredentials, type SecretStore } from '../credentials';
import {
  JOURNAL_FILE, createUploadQueue, type BatchJob, type BatchResult, type Job, type JobProgress, type QueueApi,
  type RetryPolicy, type UploadQueue,
} from '../queue';
import { requireBaseUrl, MissingBaseUrlError, type SettingsStore } from '../settings';
import { createCredentialsPart, type CredentialsPart } from './credentials-part';
import { createLocalServerPart, type AppClient } from './local-server-part';
import { NotConfiguredError } from './session-errors';
import { createWatchPart } from './watch-part';

export type SessionEvents = {
  /** A job changed state. */
  job: Job;
  progress: JobProgress;
  /** A job finished and its file was filed away. */
  result: Job;
  batch: BatchJob;
  folder: FolderState;
  localServer: LocalServerState;
  /** Something went wrong that the clerk should know about; work goes on. */
  error: Error;
  /** A message for the clerk that is not a failure. */
  warning: string;
};

export type SessionOptions = {
  /** The application-data folder: journal, local-server data. */
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  /** Where PAYROLL_CLIENT_ID/SECRET are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  retry?: Partial<RetryPolicy>;
  logger?: Logger;
  /** Options of the embedded local server (tests shorten its delivery retries). */
  localServer?: Partial<StartOptions>;
};

export type Session = {
  readonly dataDir: string;
  /** The settings file. */
  readonly settingsFile: string;
  readonly journalPath: string;
  settings(): Settings;
  /** Validates and saves (SettingsValidationError per field); parts that depend on settings follow. */
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  profile(): ProfileName;
  switchProfile(profile: ProfileName): Promise<Settings>;
  /** The API client of a profile (default the active one); NotConfiguredError without a base URL. */
  api(profile?: ProfileName): ApiClient;
  /** The upload queue, opened and resumed on first use. */
  queue(): Promise<UploadQueue>;
  sendBatch(kind: RecordKind, records: unknown): Promise<BatchResult>;
  listDeliveries(filter?: DeliveriesFilter): Promise<DeliveryAttempt[]>;
  getDelivery(id: number): Promise<DeliveryAttempt>;
  readonly credentials: CredentialsPart;
  readonly watch: {
    state(): FolderState;
    /** Saves the folder to settings; a running watch moves to it. */
    setFolder(folder: string): Promise<FolderState>;
    start(): Promise<FolderState>;
    pause(): Promise<FolderState>;
    resume(): Promise<FolderState>;
    stop(): Promise<FolderState>;
  };
  readonly localServer: {
    state(): LocalServerState;
    running(): RunningServer | undefined;
    client(): AppClient | undefined;
  };
  /** Starts the embedded local server (127.0.0.1; a free port unless given) and points the Local profile at it. */
  startLocalServer(options?: { port?: number }): Promise<LocalServerState>;
  stopLocalServer(): Promise<LocalServerState>;
  on: TypedEmitter<SessionEvents>['on'];
  off: TypedEmitter<SessionEvents>['off'];
  /** Stops every part that runs: watcher, queue (journal consistent), API clients, the local server. */
  close(): Promise<void>;
};

export function createSession(options: SessionOptions): Session {
  const logger = options.logger ?? createLogger('session');
  const env = options.env ?? process.env;
  const store = options.settings;
  const events = createTypedEmitter<SessionEvents>((error) => logger.error(`a session event listener failed: ${describeError(error)}`));
  const clients = new Map<ProfileName, ApiClient>();
  let queue: UploadQueue | undefined;
  let opening: Promise<UploadQueue> | undefined;
  let closed = false;

  const settings = () => store.get();
  const dropClients = (): void => {
    for (const client of clients.values()) client.close();
    clients.clear();
  };

  const local = createLocalServerPart({
    dataDir: options.dataDir, settings: store, secrets: options.secrets, logger: logger.child('local-server'),
    ...(options.localServer ? { serverOptions: options.localServer } : {}),
    warn: (message) => events.emit('warning', message),
    changed: (state) => {
      dropClients();
      events.emit('localServer', state);
    },
  });

  const credentialsOf = (profile: ProfileName) => async (): Promise<{ clientId: string; clientSecret: string }> => {
    const app = profile === 'local' ? local.client() : undefined;
    if (app) return { clientId: app.clientId, clientSecret: app.clientSecret };
    return resolveCredentials({ profile, settings: settings(), store: options.secrets, env });
  };

  const makeClient = (profile: ProfileName, retry?: { retries: number; baseDelayMs: number; maxDelayMs: number }): ApiClient => {
    const s = settings();
    let baseUrl: string;
    try {
      baseUrl = requireBaseUrl(s, profile);
    } catch (error) {
      if (error instanceof MissingBaseUrlError) {
        throw new NotConfiguredError(`No base URL for the ${profile} profile: set it in the settings${profile === 'local' ? ' or start the local server' : ''}`);
      }
      throw error;
    }
    return createApiClient({
      baseUrl, credentials: credentialsOf(profile), logger: logger.child(`api:${profile}`),
      ...(s.proxy ? { proxy: s.proxy } : {}), ...(retry ? { retry } : {}),
    });
  };

  const api = (profile: ProfileName = settings().activeProfile): ApiClient => {
    let client = clients.get(profile);
    if (!client) {
      client = makeClient(profile);
      clients.set(profile, client);
    }
    return client;
  };

  // The queue talks to whichever profile is active when a step runs, so it survives a profile switch.
  const queueApi: QueueApi = {
    requestGrants: (items) => api().requestGrants(items),
    uploadFile: (url, path, opts) => api().uploadFile(url, path, opts),
    sendBatch: (kind, records) => api().sendBatch(kind, records),
  };

  const openQueue = async (): Promise<UploadQueue> => {
    const q = createUploadQueue({
      dataDir: options.dataDir, api: queueApi, settings, logger: logger.child('queue'),
      ...(options.retry ? { retry: options.retry } : {}),
    });
    for (const name of ['job', 'progress', 'result', 'batch', 'error'] as const) {
      q.on(name, (payload) => events.emit(name, payload as never));
    }
    await q.start();
    return q;
  };

  const getQueue = (): Promise<UploadQueue> => {
    if (closed) return Promise.reject(new Error('the session is closed'));
    if (queue) return Promise.resolve(queue);
    opening ??= openQueue().then((q) => (queue = q)).finally(() => {
      opening = undefined;
    });
    return opening;
  };

  const watch = createWatchPart({
    settings, logger: logger.child('watcher'),
    async prepare() {
      api();
      const q = await getQueue();
      return (file) => {
        try {
          q.add(file);
        } catch (error) {
          events.emit('error', new Error(`${file.name}: could not be queued: ${describeError(error)}`, { cause: error }));
        }
      };
    },
    error: (error) => events.emit('error', error),
    changed: (state) => events.emit('folder', state),
  });

  const credentials = createCredentialsPart({
    settings: store, secrets: options.secrets, env, localClient: () => local.client(),
    probe: (profile) => makeClient(profile, { retries: 0, baseDelayMs: 0, maxDelayMs: 0 }),
    changed: () => dropClients(),
  });

  const updateSettings = async (patch: SettingsPatch): Promise<Settings> => {
    const before = settings();
    const after = store.update(patch);
    dropClients();
    if (after.watchedFolder !== before.watchedFolder) await watch.folderChanged();
    return after;
  };

  return {
    dataDir: options.dataDir,
    settingsFile: store.path,
    journalPath: join(options.dataDir, JOURNAL_FILE),
    settings,
    updateSettings,
    profile: () => settings().activeProfile,
    async switchProfile(profile) {
      const next = await updateSettings({ activeProfile: profile });
      if (baseUrlOf(next, profile) === undefined) logger.warn(`the ${profile} profile has no base URL yet: uploads wait until it is set`);
      return next;
    },
    api,
    queue: getQueue,
    async sendBatch(kind, records) {
      api();
      return (await getQueue()).sendBatch(kind, records);
    },
    listDeliveries: (filter) => api().listDeliveries(filter),
    getDelivery: (id) => api().getDelivery(id),
    credentials,
    watch: {
      state: () => watch.state(),
      async setFolder(folder) {
        await updateSettings({ watchedFolder: folder });
        return watch.state();
      },
      start: () => watch.start(),
      pause: () => watch.pause(),
      resume: () => watch.resume(),
      stop: () => watch.stop(),
    },
    localServer: { state: () => local.state(), running: () => local.running(), client: () => local.client() },
    startLocalServer: (opts = {}) => local.start(opts.port),
    stopLocalServer: () => local.stop(),
    on: events.on,
    off: events.off,
    async close() {
      if (closed) return;
      closed = true;
      await watch.stop().catch((error: unknown) => logger.warn(`stopping the watcher: ${describeError(error)}`));
      await opening?.catch(() => undefined);
      await queue?.stop();
      queue = undefined;
      dropClients();
      await local.stop();
      events.clear();
    },
  };
}
