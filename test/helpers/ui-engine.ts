/**
 * Browser mode in this process, for tests that need its parts at hand: a real session (settings file, journal,
 * keychain), the bridge handlers and the ui server on 127.0.0.1. `restart()` stops the HTTP server only and starts it
 * again on the same port with the same sign-ins (token and sessions), so a signed-in page sees only a break.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BridgeErrorEnvelope, BridgeMethodName, BridgeResponse } from '../../shared/bridge';
import type { SettingsInput } from '../../shared/settings.schema';
import { createBridgeHandlers, relayEvents, type BridgeHandlers } from '../../electron/core/bridge';
import { KeychainSecretStore, type SecretStore } from '../../electron/core/credentials';
import { createSession, type Session } from '../../electron/core/session';
import { createSettingsStore } from '../../electron/core/settings';
import { createLogger } from '../../electron/lib/logger';
import { createSignIns, type SignIns } from '../../electron/cli/ui/sign-ins';
import { startUiServer, type UiServer } from '../../electron/cli/ui/ui-server';
import type { StartOptions } from '../../electron/server/server';
import { tempDir } from './local-server';
import { RENDERER_DIR } from './ui-app';

export type UiEngine = {
  session: Session;
  handlers: BridgeHandlers;
  server: UiServer;
  dataDir: string;
  /** Stops and starts the HTTP server (same port, token and browser sessions); the session keeps running. */
  restart(): Promise<UiServer>;
  stop(): Promise<void>;
};

export type UiEngineOptions = {
  /** The app's data folder, kept after stop() (a later engine starts on it as the app would again); default a new one, removed. */
  dataDir?: string;
  settings?: SettingsInput;
  secrets?: SecretStore;
  env?: Readonly<Record<string, string | undefined>>;
  /** The queue's retry delays (default 200 ms doubling to 1 s, so tests do not wait long). */
  retry?: { baseMs: number; maxMs: number };
  /** Options of the embedded local server (e.g. short delivery retries). */
  localServer?: Partial<StartOptions>;
  /** Progress coalescing interval of the event relay (default 100 ms). */
  progressIntervalMs?: number;
  /** The clock sign-in codes expire by (default Date.now). */
  now?: () => number;
};

export async function startUiEngine(options: UiEngineOptions = {}): Promise<UiEngine> {
  const dataDir = options.dataDir ?? await tempDir('payroll-engine-');
  await mkdir(dataDir, { recursive: true });
  if (options.settings && !existsSync(join(dataDir, 'settings.json'))) await writeFile(join(dataDir, 'settings.json'), JSON.stringify(options.settings));
  const logger = createLogger('test-ui', () => undefined);
  const session = createSession({
    dataDir, settings: createSettingsStore({ cwd: dataDir }), secrets: options.secrets ?? new KeychainSecretStore(),
    env: options.env ?? {}, logger, retry: options.retry ?? { baseMs: 200, maxMs: 1000 },
    ...(options.localServer ? { localServer: options.localServer } : {}),
  });
  const handlers = createBridgeHandlers({ session, logger, checkResponses: true });
  const start = (port = 0, signIns: SignIns = createSignIns(options.now ? { now: options.now } : {})) => startUiServer({
    handlers, rendererDir: RENDERER_DIR, port, logger, signIns,
    subscribe: (send) => relayEvents(session, send, options.progressIntervalMs ? { progressIntervalMs: options.progressIntervalMs } : {}),
  });
  const engine: UiEngine = {
    session, handlers, dataDir,
    server: await start(),
    async restart() {
      const { port, signIns } = engine.server;
      await engine.server.close();
      engine.server = await start(port, signIns);
      return engine.server;
    },
    async stop() {
      await engine.server.close();
      handlers.close();
      await session.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
  return engine;
}

/** A bridge method's answer through the engine's handlers (no transport); a refusal throws with its code and message. */
export async function callOk<M extends BridgeMethodName>(engine: UiEngine, method: M, request: unknown = {}): Promise<BridgeResponse<M>> {
  const reply = await engine.handlers.call(method, request);
  if (!reply.ok) throw new Error(`${method}: ${reply.error.code}: ${reply.error.message}`);
  return reply.result as BridgeResponse<M>;
}

/** A bridge method's refusal through the engine's handlers; an answer throws. */
export async function callFails(engine: UiEngine, method: BridgeMethodName, request: unknown = {}): Promise<BridgeErrorEnvelope> {
  const reply = await engine.handlers.call(method, request);
  if (reply.ok) throw new Error(`${method} succeeded: ${JSON.stringify(reply.result)}`);
  return reply.error;
}
