/**
 * `payroll-uploader ui`: the whole app in a browser, without the desktop shell. The engine (session + bridge handlers)
 * runs in this process; the page talks to it over HTTP and Server-Sent Events on 127.0.0.1 only. Standard output gets
 * the token for scripts, then a one-time sign-in address, and another address each time Enter is pressed; everything
 * else goes to standard error.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createBridgeHandlers, relayEvents } from '../core/bridge';
import { KeychainSecretStore } from '../core/credentials';
import { createSession } from '../core/session';
import { createSettingsStore } from '../core/settings';
import { appDataDir } from '../lib/app-data';
import { describeError } from '../lib/fs-errors';
import { createLogger } from '../lib/logger';
import { usageErrors } from './cli-context';
import { SIGN_IN_CODE_TTL_MS } from './ui/sign-ins';
import { startUiServer } from './ui/ui-server';
import { UsageError } from './usage-error';

export const UI_USAGE = `Usage: payroll-uploader ui [--port N] [--host 127.0.0.1] [--data-dir D] [--local-server]

Serves the app to a browser on this machine and prints, on standard output:
  ui token <token>                             for scripts: send it as "Authorization: Bearer <token>"
  ui at http://127.0.0.1:<port>/?code=<code>   open this address in a browser to sign it in
Each address signs in one browser once, within ${SIGN_IN_CODE_TTL_MS / 60_000} minutes; press Enter for a new one
(scripts: POST /signin with the token answers one).

  --port N         port to listen on (default 0: a free one)
  --host H         loopback address to listen on: 127.0.0.1 (default) or ::1; localhost is taken as 127.0.0.1
  --data-dir D     application-data folder (default: PAYROLL_DATA_DIR or the platform's app-data folder)
  --local-server   also start the embedded local server and point the Local profile at it

Stops on Ctrl+C (SIGINT) or SIGTERM, leaving the upload journal consistent.`;

/** dist/renderer beside the sources (tsx) or beside a bundled engine; PAYROLL_RENDERER_DIR overrides. */
export function rendererDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PAYROLL_RENDERER_DIR) return resolve(env.PAYROLL_RENDERER_DIR);
  const candidates = [resolve(import.meta.dirname, '../../dist/renderer'), resolve(import.meta.dirname, '../renderer')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0] as string;
}

function parseUiFlags(args: string[]) {
  const { values } = usageErrors(() => parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'local-server': { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  }));
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d{1,5}$/.test(values.port ?? '0') || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}"`);
  const host = values.host ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) throw new UsageError(`--host must be a loopback address (127.0.0.1, localhost or ::1), not "${host}"`);
  return { port, host, dataDir: values['data-dir'] ? resolve(values['data-dir']) : appDataDir(), localServer: values['local-server'] === true };
}

/**
 * Whether standard input may be read without the system stopping this process: a pipe or a file always; a terminal
 * only while this process is in its foreground (`ps` says which process group that is). Windows has no such stop.
 */
function mayReadInput(): boolean {
  if (!process.stdin.isTTY || process.platform === 'win32') return true;
  try {
    const [foreground, own] = execFileSync('ps', ['-o', 'tpgid=,pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim().split(/\s+/);
    return foreground !== undefined && foreground === own;
  } catch {
    return false;
  }
}

export async function uiCommand(args: string[]): Promise<number> {
  const flags = parseUiFlags(args);
  const logger = createLogger('ui');
  const renderer = rendererDir();
  if (!existsSync(join(renderer, 'index.html'))) {
    throw new Error(`the built screens are missing (${renderer}): run \`npm run build:renderer\` first`);
  }
  const session = createSession({
    dataDir: flags.dataDir, settings: createSettingsStore({ cwd: flags.dataDir }), secrets: new KeychainSecretStore(), logger,
  });
  const handlers = createBridgeHandlers({ session, logger: logger.child('bridge') });
  let server;
  try {
    if (flags.localServer) await session.startLocalServer();
    server = await startUiServer({
      handlers, rendererDir: renderer, host: flags.host, port: flags.port, logger: logger.child('http'),
      subscribe: (send) => relayEvents(session, send),
    });
  } catch (error) {
    handlers.close();
    await session.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`port ${flags.port} is already in use; choose another with --port (0 picks a free one)`);
    throw error;
  }
  if (session.settings().watchedFolder) {
    // Picks up where the clerk left off; without a base URL or credentials the screens say what is missing.
    await session.watch.start().catch((error: unknown) => logger.warn(`not watching yet: ${describeError(error)}`));
  }
  logger.info(`data folder ${flags.dataDir}`);
  const running = server;
  // The token goes to standard output only: never into an address, which a browser keeps in its history.
  process.stdout.write(`ui token ${running.token}\n`);
  process.stdout.write(`ui at ${running.signInUrl()}\n`);
  // An address works once and not for long: Enter in the terminal prints a new one (npm start opens it too). Only
  // where reading it cannot stop this process: a background job (`ui &`) that reads its terminal is stopped by the
  // system, and would hold the data folder without answering.
  const enter = mayReadInput() ? createInterface({ input: process.stdin }) : undefined;
  process.stdin.on('error', () => undefined);
  enter?.on('line', () => process.stdout.write(`ui at ${running.signInUrl()}\n`));
  if (!enter) logger.info('started in the background: for a new sign-in address, start it again in the foreground (or POST /signin with the token)');
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info(`${signal}: stopping`);
      enter?.close();
      (async () => {
        await running.close();
        handlers.close();
        await session.close();
      })().then(() => resolveExit(0), (error: unknown) => {
        logger.error(`stopping failed: ${describeError(error)}`);
        resolveExit(1);
      });
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });
}
