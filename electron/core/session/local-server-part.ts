/**
 * The embedded local server: started through this one call by the desktop engine, browser mode and the CLI alike.
 * The app keeps its own client of it: the id in settings (Local profile), the secret in the keychain, so a restart
 * finds the same client and the same imports. Starting it points the Local profile at it; the clerk's own Local
 * settings it replaced (an address or client id of their own) are kept beside it and put back when it stops.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCOPES } from '../../../shared';
import type { LocalServerState } from '../../../shared/bridge';
import { LOCAL_BASE_URL, type Settings } from '../../../shared/settings.schema';
import type { Logger } from '../../lib/logger';
import { describeError, errorCode } from '../../lib/fs-errors';
import { findClient } from '../../server/auth/clients';
import type { RunningServer, StartOptions } from '../../server/server';
import { startServer } from '../../server/server';
import type { SecretStore } from '../credentials';
import type { SettingsStore } from '../settings';

/** The client id the app registers with its embedded local server. */
export const APP_LOCAL_CLIENT_ID = 'payroll-uploader-app';
/** Under the app's data folder. */
export const LOCAL_SERVER_DIR = 'local-server';
/** Under LOCAL_SERVER_DIR: the clerk's own Local settings while the app's server has taken their place. */
export const REPLACED_LOCAL_FILE = 'replaced-local-profile.json';

export type AppClient = { clientId: string; clientSecret: string; kept: boolean };

export type LocalServerPart = {
  state(): LocalServerState;
  running(): RunningServer | undefined;
  /** The app's client while the server runs. */
  client(): AppClient | undefined;
  start(port?: number): Promise<LocalServerState>;
  stop(): Promise<LocalServerState>;
};

type LocalProfile = { baseUrl?: string; clientId?: string };

/** The clerk's own Local settings, kept while the app's server runs in their place (a file, so a crash keeps them). */
function replacedLocal(dataDir: string) {
  const file = join(dataDir, LOCAL_SERVER_DIR, REPLACED_LOCAL_FILE);
  return {
    get(): LocalProfile | undefined {
      try {
        const kept = JSON.parse(readFileSync(file, 'utf8')) as LocalProfile;
        return typeof kept === 'object' && kept !== null ? kept : undefined;
      } catch {
        return undefined;
      }
    },
    set(profile: LocalProfile): void {
      writeFileSync(`${file}.tmp`, JSON.stringify(profile), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    },
    clear: () => rmSync(file, { force: true }),
  };
}

/** Local settings of the clerk's own (another address, a client id), not the untouched default. */
const ownLocal = (profile: LocalProfile): boolean =>
  profile.clientId !== undefined || (profile.baseUrl !== undefined && profile.baseUrl !== LOCAL_BASE_URL);

export type LocalServerPartOptions = {
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  logger: Logger;
  /** Server options for tests (shorter delivery retries...). */
  serverOptions?: Partial<StartOptions>;
  /** Something the clerk should know (e.g. the keychain could not keep the client). */
  warn(message: string): void;
  /** A message for the clerk that is not a problem (their own Local settings are back). */
  notice?(message: string): void;
  /** Something that went wrong for the clerk's own client (a webhook delivery that failed after every retry). */
  fail(message: string): void;
  changed(state: LocalServerState): void;
};

/** The app's client secret: kept in the keychain, made once; a one-run secret when the keychain cannot be used. */
async function appClient(options: LocalServerPartOptions): Promise<AppClient> {
  const { secrets, logger } = options;
  try {
    const kept = await secrets.get('local', APP_LOCAL_CLIENT_ID);
    if (kept) return { clientId: APP_LOCAL_CLIENT_ID, clientSecret: kept, kept: true };
    const made = randomBytes(32).toString('base64url');
    await secrets.set('local', APP_LOCAL_CLIENT_ID, made);
    logger.info(`made the app's own local-server client "${APP_LOCAL_CLIENT_ID}" (secret in the keychain)`);
    return { clientId: APP_LOCAL_CLIENT_ID, clientSecret: made, kept: true };
  } catch (error) {
    options.warn(`The keychain could not keep the local server's client, so it lasts only while the app runs: ${describeError(error)}`);
    return { clientId: APP_LOCAL_CLIENT_ID, clientSecret: randomBytes(32).toString('base64url'), kept: false };
  }
}

/** The port the app's own server had when the Local profile was last pointed at it, if it still is. */
function lastPort(settings: Settings): number | undefined {
  const saved = settings.profiles.local;
  if (saved.clientId !== APP_LOCAL_CLIENT_ID || !saved.baseUrl) return undefined;
  const url = new URL(saved.baseUrl);
  return url.hostname === '127.0.0.1' && url.port ? Number(url.port) : undefined;
}

/**
 * Whether the Local profile still names the app's own server (as start() left it: its address and the app's client),
 * running or not. Jobs queued for it wait for it while it is stopped, wherever it listens next time.
 */
export const pointsAtAppServer = (settings: Settings): boolean => lastPort(settings) !== undefined;

export function createLocalServerPart(options: LocalServerPartOptions): LocalServerPart {
  let server: RunningServer | undefined;
  let client: AppClient | undefined;
  let starting: Promise<LocalServerState> | undefined;
  const replaced = replacedLocal(options.dataDir);

  const state = (): LocalServerState => {
    if (!server || !client) return { running: false };
    const webhookUrl = findClient(server.ctx.db, client.clientId)?.webhookUrl ?? undefined;
    return { running: true, url: server.url, port: server.port, clientId: client.clientId, ...(webhookUrl ? { webhookUrl } : {}) };
  };

  const start = async (port?: number): Promise<LocalServerState> => {
    const found = await appClient(options);
    const listen = (on: number) => startServer({
      port: on,
      logger: options.logger,
      notice: (line) => options.logger.info(line),
      ...options.serverOptions,
      host: '127.0.0.1',
      dataDir: join(options.dataDir, LOCAL_SERVER_DIR),
      clients: [{ id: found.clientId, secret: found.clientSecret, scopes: [...SCOPES] }],
      deliveryFailed: (failure) => {
        if (failure.clientId !== found.clientId) return;
        options.fail(`A webhook delivery failed after every retry: the ${failure.eventType} event ${failure.eventId} never reached ${failure.url}; see Deliveries, where it can be sent again`);
      },
    });
    // Same address as last time when it is free: the Local profile, and the uploads queued for it, stay valid.
    const last = port === undefined ? lastPort(options.settings.get()) : undefined;
    const started = last === undefined
      ? await listen(port ?? 0)
      : await listen(last).catch((error: unknown) => {
        if (errorCode(error) !== 'EADDRINUSE') throw error;
        // Its jobs follow it there; an upload address it gave on the old port is never used again (session.ts).
        options.logger.info(`port ${last} is taken now (another program listens there); the local server listens on another one, `
          + `and uploads queued for it ask it there for new upload addresses (nothing more is sent to port ${last})`);
        return listen(0);
      });
    server = started;
    client = found;
    // Points the Local profile at it, so every part (and the CLI's --env local) talks to this server. Local settings
    // of the clerk's own are kept first (unless they were kept at an earlier start that never stopped: a crash).
    const before = options.settings.get();
    if (!pointsAtAppServer(before) && ownLocal(before.profiles.local)) {
      const { baseUrl, clientId } = before.profiles.local;
      replaced.set({ ...(baseUrl ? { baseUrl } : {}), ...(clientId ? { clientId } : {}) });
    }
    options.settings.update({ profiles: { local: { baseUrl: started.url, clientId: found.clientId } } });
    options.logger.info(`embedded local server listening on ${started.url}`);
    const now = state();
    options.changed(now);
    return now;
  };

  /**
   * The clerk's own Local settings come back once the app's server stops, unless they changed Local meanwhile (then
   * theirs are the new ones). Without settings of their own, Local keeps naming the stopped server: files queued for
   * it wait for it, with a message saying so, rather than go to a default address where nothing may listen.
   */
  const putBackOwnLocal = (stopped: RunningServer): void => {
    const kept = replaced.get();
    if (!kept) return;
    const now = options.settings.get().profiles.local;
    if (now.baseUrl === stopped.url && now.clientId === APP_LOCAL_CLIENT_ID) {
      options.settings.update({ profiles: { local: { baseUrl: kept.baseUrl ?? LOCAL_BASE_URL, clientId: kept.clientId } } });
      options.notice?.(`The Local test server environment uses your own settings again: ${kept.baseUrl ?? LOCAL_BASE_URL}`
        + `${kept.clientId ? `, client ID ${kept.clientId}` : ''}`);
    }
    replaced.clear();
  };

  return {
    state,
    running: () => server,
    client: () => client,
    start(port) {
      if (server) return Promise.resolve(state());
      starting ??= start(port).finally(() => {
        starting = undefined;
      });
      return starting;
    },
    async stop() {
      await starting?.catch(() => undefined);
      const running = server;
      server = undefined;
      client = undefined;
      if (running) {
        await running.ctx.processor.idle();
        await running.close();
        options.logger.info('embedded local server stopped');
        putBackOwnLocal(running);
        options.changed(state());
      }
      return state();
    },
  };
}
