/**
 * The session service: one object the CLI, the Electron engine and browser mode all use. Its parts start on demand:
 * the upload pipeline (queue, claims, watcher), an API client per profile, the embedded local server. It never
 * throws for a missing base URL at birth: a part that needs one answers NotConfiguredError when it is asked for.
 *
 * Uploads are pinned to a service: the pipeline is opened for the active profile's base URL and client id and sends
 * only the jobs queued for them; when the profile, its base URL or its client id changes, the pipeline is closed
 * (in-flight uploads resume later, for their own service and client; a manual batch being sent ends first, its outcome
 * journaled) and opened again for the new one. Calls that need the pipeline meanwhile wait for the new one.
 *
 * An API client is kept per profile, address, pinned client id and proxy. A change of any of them, or of the profile's
 * credentials, retires the clients it concerns: nothing new goes through them, and requests under way finish on their
 * connections. Any other change of settings leaves them alone.
 */
import { join, resolve } from 'node:path';
import type { DeliveryAttempt, ImportResult, RecordKind } from '../../../shared';
import type { FolderState, LocalServerState, NoticeEnd } from '../../../shared/bridge';
import type { ProfileName, Settings, SettingsPatch } from '../../../shared/settings.schema';
import { PROFILE_TITLES, baseUrlOf } from '../../../shared/settings.schema';
import { describeError } from '../../lib/fs-errors';
import { createLogger, type Logger } from '../../lib/logger';
import { whenLockLost } from '../../lib/process-lock';
import { createTypedEmitter, type TypedEmitter } from '../../lib/typed-emitter';
import type { RunningServer, StartOptions } from '../../server/server';
import { ApiError, createApiClient, type ApiClient, type ApiCredentials, type DeliveriesFilter } from '../api';
import { clientIdOf, resolveCredentials, type SecretStore } from '../credentials';
import {
  JOURNAL_FILE, LOCK_FILE, journalLostError, whenJournalLost, type BatchJob, type BatchResult, type Job, type JobProgress, type JobService, type QueueApi,
  type RetryPolicy, type UploadQueue,
} from '../queue';
import { createNoticeBoard, type LastingNotice, type NoticeBoard } from '../notices';
import type { SettingsStore } from '../settings';
import { createCredentialsPart, type CredentialsPart } from './credentials-part';
import { createLocalServerPart, pointsAtAppServer, type AppClient } from './local-server-part';
import { deliveriesFailure, redeliveryFailure, type RedeliveryServer } from './delivery-failures';
import { ConflictError, NotConfiguredError, NotFoundError, UnsupportedError, UploadsStoppedError, lockLostMessage } from './session-errors';
import { openUploaderPart, type UploaderEvents, type UploaderPart } from './uploader-part';
import { createWatchPart } from './watch-part';
import { UnreadableFolderError } from '../watcher';

/** How the journal names the embedded local server: it may listen on another port next time but is the same service. */
export const EMBEDDED_SERVICE = 'embedded://local-server';

export type SessionEvents = {
  /** A job changed state. */
  job: Job;
  progress: JobProgress;
  /** A job finished and its file was filed away. */
  result: Job;
  batch: BatchJob;
  folder: FolderState;
  localServer: LocalServerState;
  /** A file in the watched folder that is not a CSV export (said once per file). */
  ignored: { path: string; name: string };
  /** The watcher handed a file at this path to the queue (stable, or refused unread). */
  taken: { path: string };
  /** A file handed over that could not be taken up (not claimed, not journaled); it stays in the folder. */
  untaken: { path: string; reason: string };
  /** Something went wrong that the clerk should know about; work goes on. */
  error: Error;
  /** A message for the clerk that is not a failure ("resuming 2 uploads from the last run"), with its end if it has one. */
  warning: string | LastingNotice;
  /** The problem an earlier `error` (a LastingError) said lasts until this is over: its notice goes. */
  over: NoticeEnd;
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
  /** false: manual batches only (the `send` command): file jobs are neither taken nor resumed, no lock. Default true. */
  files?: boolean;
  /** A claim of a dead uploader in a shared folder is taken over after this long. Default 120 s. */
  claimTimeoutMs?: number;
  /**
   * How often the session looks whether the service or client id changed behind its back (the settings file edited
   * by the command line or another window): the pipeline then follows. Default 5 s.
   */
  recheckMs?: number;
  /**
   * false: this session never runs the app's own local server, and a Local profile that names it is an address like
   * any other (a command line run that does not start it: the server may run in another process). Default true.
   */
  appServer?: boolean;
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
  /** The upload queue of the active service, opened and resumed on first use (LockedError: another uploader has it). */
  queue(): Promise<UploadQueue>;
  /**
   * The service files are queued for and sent to now; undefined when there is none (no base URL, or the app's own
   * local server is stopped). Unfinished jobs of any other service wait until it is the active one again.
   */
  uploadsGoTo(): JobService | undefined;
  /** Resolves once files being claimed are journaled and the queue is idle. */
  idle(): Promise<void>;
  sendBatch(kind: RecordKind, records: unknown): Promise<BatchResult>;
  listDeliveries(filter?: DeliveriesFilter): Promise<DeliveryAttempt[]>;
  /** NotFoundError when the service has no attempt of that number for the client (its 404). */
  getDelivery(id: number): Promise<DeliveryAttempt>;
  /**
   * Sends delivery `id`'s event again now (the local test server's redelivery), through whatever local server the
   * Local test server environment names: the one built into the app or one run on its own. UnsupportedError while
   * another environment is active; the server's refusals in words (NotFoundError, ConflictError).
   */
  redeliver(id: number): Promise<DeliveryAttempt>;
  /**
   * The processing result of an import once processing has ended (PROCESSED or REJECTED), polling every second for up
   * to `waitMs` (on the monotonic clock); undefined if it is still queued then, or the session closed. Local server only
   * (`/local/v1/imports/{id}`).
   */
  importResult(id: string, waitMs?: number): Promise<ImportResult | undefined>;
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
  /** The notices for the clerk, kept until dismissed or over, for the life of the session (electron/core/notices). */
  readonly notices: NoticeBoard;
  on: TypedEmitter<SessionEvents>['on'];
  off: TypedEmitter<SessionEvents>['off'];
  /** Stops every part that runs: watcher, queue (journal consistent), API clients, the local server. */
  close(): Promise<void>;
};

/** Where uploads go now: the active profile, its base URL and client id, and how the journal names that service. */
type Target = { profile: ProfileName; url?: string; service?: JobService };

/** An API client, and what it was made for: retired once that changes. */
type KeptClient = { client: ApiClient; profile: ProfileName; baseUrl: string; proxy: string | undefined };

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** Whether two addresses name the same scheme, host and port (false when either is not an address). */
function sameOrigin(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || !URL.canParse(a) || !URL.canParse(b)) return false;
  return new URL(a).origin === new URL(b).origin;
}

const sameTarget = (a: Target, b: Target): boolean =>
  a.profile === b.profile && a.url === b.url && a.service?.baseUrl === b.service?.baseUrl && a.service?.clientId === b.service?.clientId;

export function createSession(options: SessionOptions): Session {
  const logger = options.logger ?? createLogger('session');
  const env = options.env ?? process.env;
  const store = options.settings;
  const events = createTypedEmitter<SessionEvents>((error) => logger.error(`a session event listener failed: ${describeError(error)}`));
  // Listening before any part starts: what is said before a window opens is kept for it.
  const notices = createNoticeBoard({ on: events.on, onListenerError: (error) => logger.error(`a notice listener failed: ${describeError(error)}`) });
  const clients = new Map<string, KeptClient>();
  let uploader: UploaderPart | undefined;
  let uploaderTarget: Target | undefined;
  let opening: Promise<UploaderPart> | undefined;
  /**
   * The pipeline being replaced, until it has stopped: the next one opens only then. Opened beside it, the next one
   * would be refused by the data folder's lock the old one still holds, and the old one's journal closes under a
   * batch it is still sending.
   */
  let replaced: Promise<void> = Promise.resolve();
  let retargeting: Promise<void> = Promise.resolve();
  let closed = false;

  const settings = () => store.get();
  /** Retires the clients `which` names (Transport.close): requests under way on them finish, none start. */
  const retireClients = (which: (kept: KeptClient) => boolean): void => {
    for (const [key, kept] of clients) {
      if (!which(kept)) continue;
      kept.client.close();
      clients.delete(key);
    }
  };
  const notConfigured = (profile: ProfileName) => new NotConfiguredError(
    `No service address is set for ${PROFILE_TITLES[profile]}: enter it in Settings (the settings file's profiles.${profile}.baseUrl)`
      + `${profile === 'local' ? ', or start the local server' : ''}`,
  );

  const local = createLocalServerPart({
    dataDir: options.dataDir, settings: store, secrets: options.secrets, logger: logger.child('local-server'),
    ...(options.localServer ? { serverOptions: options.localServer } : {}),
    warn: (message) => events.emit('warning', message),
    notice: (message) => events.emit('warning', message),
    fail: (message) => events.emit('error', new Error(message)),
    changed: (state) => {
      // The app's own client of its server may have another secret; other profiles' requests go on untouched.
      retireClients((kept) => kept.profile === 'local');
      events.emit('localServer', state);
      retarget();
    },
  });

  /** The client id the profile's credentials name now (the app's own client for its built-in server). */
  const clientIdNow = (profile: ProfileName): string | undefined => {
    const app = profile === 'local' ? local.client() : undefined;
    return app ? app.clientId : clientIdOf({ profile, settings: settings(), env });
  };

  /**
   * The profile's credentials when a token is needed. With `pinned`, only that client's: an upload pipeline is pinned
   * to the client its jobs were queued as, and a client id changed behind its back (another window, the command line)
   * must not send them as the new client. The pipeline then moves to the new client, and those jobs wait for theirs.
   */
  const credentialsOf = (profile: ProfileName, pinned?: string) => async (): Promise<ApiCredentials> => {
    const app = profile === 'local' ? local.client() : undefined;
    const found = app ? { clientId: app.clientId, clientSecret: app.clientSecret }
      : await resolveCredentials({ profile, settings: settings(), store: options.secrets, env });
    if (pinned !== undefined && found.clientId !== pinned) {
      retarget();
      throw new ConflictError(
        `the client ID of ${PROFILE_TITLES[profile]} is now ${found.clientId}, but this was queued as client ${pinned}: `
          + `it is sent only as ${pinned}, and waits until ${pinned} is the client ID again`,
      );
    }
    return found;
  };

  const makeClient = (
    profile: ProfileName, baseUrl: string, retry?: { retries: number; baseDelayMs: number; maxDelayMs: number }, pinned?: string,
  ): ApiClient => {
    const proxy = settings().proxy;
    return createApiClient({
      baseUrl, credentials: credentialsOf(profile, pinned), logger: logger.child(`api:${profile}`),
      ...(proxy ? { proxy } : {}), ...(retry ? { retry } : {}),
    });
  };
  /** The Local profile names the app's own server, which is stopped: nothing can reach it until it starts again. */
  const appServerStopped = (profile: ProfileName): boolean =>
    options.appServer !== false && profile === 'local' && local.running() === undefined && pointsAtAppServer(settings());
  const appServerStoppedError = () => new ConflictError(
    'The built-in local test server is stopped: start it on the Local server screen (files wait for it), or choose another environment in Settings',
  );
  const urlOf = (profile: ProfileName): string => {
    if (appServerStopped(profile)) throw appServerStoppedError();
    const url = baseUrlOf(settings(), profile);
    if (url === undefined) throw notConfigured(profile);
    return url;
  };
  /**
   * One client per profile and base URL (and pinned client id, and proxy): a pipeline pinned to a service keeps
   * talking to that address only, as that client only.
   */
  const clientFor = (profile: ProfileName, baseUrl: string, pinned?: string): ApiClient => {
    const proxy = settings().proxy;
    const key = JSON.stringify([profile, baseUrl, pinned ?? '', proxy ?? '']);
    let kept = clients.get(key);
    if (!kept) {
      kept = { client: makeClient(profile, baseUrl, undefined, pinned), profile, baseUrl, proxy };
      clients.set(key, kept);
    }
    return kept.client;
  };
  const api = (profile: ProfileName = settings().activeProfile): ApiClient => clientFor(profile, urlOf(profile));

  const targetNow = (): Target => {
    const profile = settings().activeProfile;
    const url = baseUrlOf(settings(), profile);
    if (url === undefined) return { profile };
    // The app's own server, stopped: no service to send to, and files found now are not bound to its old address
    // (it may listen on another port next time); they wait in the folder, and its jobs wait, until it starts.
    if (appServerStopped(profile)) return { profile, url };
    const service = withoutTrailingSlash(url);
    const running = local.running();
    const embedded = profile === 'local' && running !== undefined && withoutTrailingSlash(running.url) === service;
    const clientId = clientIdNow(profile);
    return { profile, url, service: { profile, baseUrl: embedded ? EMBEDDED_SERVICE : service, ...(clientId ? { clientId } : {}) } };
  };

  const pinnedApi = (target: Target): QueueApi => {
    /**
     * The built-in server is one service wherever it listens (its jobs follow it to another port), so what is sent to
     * it goes to where it listens now and nowhere else: on a port it left another program may answer, and a 200 from
     * that program would be taken for the service holding the file.
     */
    const builtIn = target.service?.baseUrl === EMBEDDED_SERVICE;
    const builtInListensAt = (url: string | undefined): boolean => sameOrigin(url, local.running()?.url);
    const client = (): ApiClient => {
      if (target.url === undefined) throw notConfigured(target.profile);
      if (!target.service && appServerStopped(target.profile)) throw appServerStoppedError();
      // Stopped, or started again on another port, since this pipeline opened (the pipeline is being replaced).
      if (builtIn && !builtInListensAt(target.url)) throw appServerStoppedError();
      return clientFor(target.profile, target.url, target.service?.clientId);
    };
    return {
      requestGrants: (items, signal) => client().requestGrants(items, signal),
      uploadFile: (url, path, opts) => client().uploadFile(url, path, opts),
      sendBatch: (kind, records) => client().sendBatch(kind, records),
      // An address the built-in server gave where it listened before is dropped, and a new one asked for. Another
      // service's addresses may point wherever it says.
      grantedHere: (uploadUrl) => !builtIn || builtInListensAt(uploadUrl),
    };
  };

  const emitFromUploader = <K extends keyof UploaderEvents>(name: K, payload: UploaderEvents[K]): void => {
    if (name === 'notice') events.emit('warning', payload as UploaderEvents['notice']);
    else if (name === 'presence') {
      const { folder, present, unreadable } = payload as UploaderEvents['presence'];
      watch.presence(folder, present, unreadable);
    } else if (name === 'waiting') {
      const { folder, count } = payload as UploaderEvents['waiting'];
      watch.waiting(folder, count);
    } else if (name === 'held') {
      // The folder's state says it (`held`, read from the queue): the header follows it, not the dismissible notice.
      watch.heldChanged();
    } else {
      // Said before the folder counts as gone, so the state it leads to names the reason.
      if (name === 'error' && payload instanceof UnreadableFolderError) watch.unreadable(payload.folder);
      events.emit(name as Exclude<K, 'notice' | 'presence' | 'waiting' | 'held'>, payload as never);
    }
  };

  const openUploader = async (): Promise<UploaderPart> => {
    const target = targetNow();
    const opened = await openUploaderPart({
      dataDir: options.dataDir, settings, api: pinnedApi(target), service: target.service, files: options.files ?? true,
      logger, emit: emitFromUploader, reopened: uploaderTarget !== undefined,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.claimTimeoutMs !== undefined ? { claimTimeoutMs: options.claimTimeoutMs } : {}),
    });
    if (target.service) logger.info(`uploads go to ${target.profile} (${target.url})`);
    uploaderTarget = target;
    return opened;
  };

  /** The pipeline, opened once the one it replaces has stopped; everyone asking meanwhile waits for that one opening. */
  const getUploader = (): Promise<UploaderPart> => {
    if (closed) return Promise.reject(new Error('the session is closed'));
    if (uploader) return Promise.resolve(uploader);
    opening ??= replaced.then(openUploader).then((u) => (uploader = u)).finally(() => {
      opening = undefined;
    });
    return opening;
  };

  /** The pipeline stops and is no longer handed out; getUploader opens the next one once it has stopped. */
  const replaceUploader = (): Promise<void> => {
    const old = uploader;
    uploader = undefined;
    if (old) {
      replaced = old.stop().catch((error: unknown) => logger.error(`stopping the upload pipeline failed: ${describeError(error)}`));
    }
    return replaced;
  };

  /** The service changed: the pipeline of the old one stops (its jobs wait for it), a new one opens, the watch goes on. */
  function retarget(): void {
    retargeting = retargeting.then(async () => {
      await opening?.catch(() => undefined);
      if (closed) return;
      if (!uploader || !uploaderTarget) {
        // No pipeline yet (nothing has needed one, or the watch could not start): a watch waiting for a usable
        // service (one that could not start, e.g. while the app's own server was stopped) may start now.
        await watch.reopen().catch(() => undefined);
        return;
      }
      if (sameTarget(uploaderTarget, targetNow())) return;
      void replaceUploader();
      try {
        await getUploader();
        await watch.reopen();
      } catch (error) {
        // Nothing watches now (no base URL, another uploader holds the data folder...): the folder state says so,
        // and the watch starts again by itself once the clerk points the app at a usable service.
        await watch.suspend().catch(() => undefined);
        events.emit('error', new UploadsStoppedError(`Uploads stopped: ${describeError(error)}`, { cause: error }));
      }
    }).catch((error: unknown) => logger.error(`switching the upload service failed: ${describeError(error)}`));
  }

  // The uploader's lock lost while it ran (the data folder removed under the app, another process taking it): uploads
  // stop at once, said first (the command line may be ending on the same news), and go on when the watch is reopened.
  const lockFile = resolve(options.dataDir, LOCK_FILE);
  const stopUploads = (why: string): void => {
    events.emit('error', new UploadsStoppedError(`Uploads stopped: ${why}`));
    retargeting = retargeting.then(async () => {
      await replaceUploader();
      await watch.suspend();
    }).catch((error: unknown) => logger.error(`stopping uploads after ${why}: ${describeError(error)}`));
  };
  const offLockLost = whenLockLost((lost) => {
    if (closed || resolve(lost.path) !== lockFile) return;
    stopUploads(lockLostMessage(lost));
  });
  // The same when the journal's file itself was removed, emptied or replaced under the uploader (journal-file.ts).
  const journalFile = resolve(options.dataDir, JOURNAL_FILE);
  const offJournalLost = whenJournalLost((lost) => {
    if (closed || resolve(lost.path) !== journalFile) return;
    stopUploads(journalLostError(lost.path, lost.loss).message);
  });

  // Changes made in this session retarget at once; the settings file changed by another process is noticed here.
  const recheck = setInterval(() => {
    if (!uploader || !uploaderTarget || closed) return;
    let now: Target;
    try {
      now = targetNow();
    } catch {
      return; // A settings file that cannot be read is reported where the clerk's next action reads it.
    }
    if (!sameTarget(uploaderTarget, now)) retarget();
  }, options.recheckMs ?? 5_000);
  recheck.unref();

  const watch = createWatchPart({
    settings,
    async open(folder) {
      const target = targetNow();
      if (!target.service) throw appServerStopped(target.profile) ? appServerStoppedError() : notConfigured(target.profile);
      await (await getUploader()).watch(folder);
    },
    // Every change of service ends in a reopen of the watch, which says its state: the reason goes out with it.
    noService: () => {
      let target: Target;
      try {
        target = targetNow();
      } catch {
        return undefined; // A settings file that cannot be read is reported where the clerk's next action reads it.
      }
      if (target.service) return undefined;
      return { profile: target.profile, reason: appServerStopped(target.profile) ? 'builtInServerStopped' : 'noAddress' };
    },
    // The queue uploads go through now holds every file (credentials refused, no scope): said with every state.
    held: () => uploader?.queue.held(),
    close: async () => {
      await uploader?.stopWatching();
    },
    changed: (state) => events.emit('folder', state),
  });

  const credentials = createCredentialsPart({
    settings: store, secrets: options.secrets, env, localClient: () => local.client(),
    probe: (profile) => makeClient(profile, urlOf(profile), { retries: 0, baseDelayMs: 0, maxDelayMs: 0 }),
    changed: (profile) => {
      // Their tokens are the old credentials': requests under way finish, the next ones ask anew. Other profiles' go on.
      retireClients((kept) => kept.profile === profile);
      // Files held because the service refused the old credentials (or there were none) are tried with the new ones.
      if (uploaderTarget?.profile === profile) uploader?.queue.retryHeld();
      // Another client id is another account at the service: the pipeline follows it (see credentialsOf).
      retarget();
    },
  });

  const updateSettings = async (patch: SettingsPatch): Promise<Settings> => {
    const before = settings();
    const after = store.update(patch);
    // Only clients whose address or proxy changed are retired: a change of anything else (the concurrency, the
    // stability wait...) must not touch a batch or an upload under way.
    retireClients((kept) => kept.proxy !== after.proxy || baseUrlOf(after, kept.profile) !== kept.baseUrl);
    retarget();
    await retargeting;
    if (after.watchedFolder !== before.watchedFolder) await watch.reopen();
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
    queue: async () => (await getUploader()).queue,
    uploadsGoTo: () => (uploader ? uploader.service : targetNow().service),
    idle: async () => (await getUploader()).idle(),
    async sendBatch(kind, records) {
      api();
      // The client id may have changed behind the session's back (the command line): the batch goes as today's.
      retarget();
      await retargeting;
      return (await getUploader()).queue.sendBatch(kind, records);
    },
    listDeliveries: (filter) => api().listDeliveries(filter).catch((error: unknown) => {
      throw deliveriesFailure(error, 'The request for the deliveries');
    }),
    // The service's 404 for one attempt is an answer, not a failure: that number is not the client's. Said as such,
    // the screen tells it in words and no one asks again.
    getDelivery: (id) => api().getDelivery(id).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) {
        throw new NotFoundError(`There is no delivery attempt ${id} for this client (${error.message})`, { cause: error });
      }
      throw deliveriesFailure(error, `The request for delivery ${id}`);
    }),
    async redeliver(id) {
      if (settings().activeProfile !== 'local') {
        throw new UnsupportedError(
          'Sending a delivery again is a feature of the local test server: choose the Local test server environment in Settings to use it',
        );
      }
      // Through the Local environment's own client, as the deliveries were listed: the test server built into the app
      // and one run on its own (`payroll-uploader server`) answer the same request.
      const client = api('local');
      const running = local.running();
      const url = baseUrlOf(settings(), 'local') ?? '';
      const server: RedeliveryServer = running && withoutTrailingSlash(running.url) === withoutTrailingSlash(url)
        ? { builtIn: true } : { builtIn: false, url: withoutTrailingSlash(url) };
      return client.redeliver(id).catch((error: unknown) => {
        throw redeliveryFailure(error, id, server);
      });
    },
    async importResult(id, waitMs = 60_000) {
      // Counted on the monotonic clock: the computer's clock set forward (NTP, a time-zone fix) must not end the wait at
      // once, which `watch --once` would report as a result not known, nor one set back stretch it.
      const deadline = performance.now() + waitMs;
      // Polled until processing ends, the wait is over or the session closes (History's results are awaited for up to
      // ten minutes: a closed session asks nothing more, and its poll keeps the process alive a second at most).
      while (!closed) {
        const result = await api().getImport(id);
        if (result.status === 'PROCESSED' || result.status === 'REJECTED') return result;
        if (performance.now() >= deadline) return undefined;
        await new Promise((done) => setTimeout(done, 1_000));
      }
      return undefined;
    },
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
    async startLocalServer(opts = {}) {
      const state = await local.start(opts.port);
      await retargeting;
      return state;
    },
    async stopLocalServer() {
      const state = await local.stop();
      await retargeting;
      return state;
    },
    notices,
    on: events.on,
    off: events.off,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(recheck);
      offLockLost();
      offJournalLost();
      await watch.stop().catch((error: unknown) => logger.warn(`stopping the watcher: ${describeError(error)}`));
      await retargeting;
      await opening?.catch(() => undefined);
      await replaceUploader();
      retireClients(() => true);
      await local.stop();
      events.clear();
    },
  };
}
