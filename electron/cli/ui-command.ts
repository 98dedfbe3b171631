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
import { LOCK_FILE } from '../core/queue';
import { KeychainSecretStore } from '../core/credentials';
import { createSession } from '../core/session';
import { createSettingsStore } from '../core/settings';
import { appDataDir } from '../lib/app-data';
import { describeError } from '../lib/fs-errors';
import { createLogger } from '../lib/logger';
import { printableText } from '../lib/printable-name';
import { LockedError, acquireProcessLock } from '../lib/process-lock';
import type { Logger } from '../lib/logger';
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

/** Another Payroll Uploader's hold on the data folder `dataDir` (its upload journal's lock), in the words `ui` says. */
function heldBy(error: LockedError, dataDir: string): LockedError {
  const { holder, path } = error;
  const held = new LockedError(path, holder, '--data-dir');
  held.message = `another Payroll Uploader already holds the data folder ${printableText(dataDir)} (its ${printableText(holder.what)}, `
    + `process ${holder.pid} on ${printableText(holder.host)}, since ${new Date(holder.since).toLocaleString()}: the desktop app, `
    + 'another `payroll-uploader ui` or a `payroll-uploader watch`), so this one does not start: use the window or browser tab '
    + 'already open on it, or stop the other one first (or give this one its own data folder with --data-dir). '
    + `Lock file: ${printableText(path)}`;
  return held;
}

/**
 * Runs `step` (a look at the data folder's uploader lock, or the upload journal's opening), refusing to go on when
 * another Payroll Uploader (the desktop app, another `ui`, a `watch`) holds the data folder: a second app on the same
 * folder could not upload, nor run its own built-in server (the first one's runs there), and its screens would only
 * say that server is stopped. So it does not start: it says which process holds the folder and what to do, and exits
 * 3 (main.ts). Any other trouble (a damaged journal, say) is left to the screens, which say it and offer what to do.
 */
async function unlessHeld(dataDir: string, logger: Logger, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    if (error instanceof LockedError && resolve(error.path) === resolve(dataDir, LOCK_FILE)) throw heldBy(error, dataDir);
    // Said by the watch's start just after, and by the screens: not twice here.
    logger.debug(`the upload journal could not be opened yet: ${describeError(error)}`);
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
    // Looked at first as the journal's own open would take it, since a journal opened with no service to upload to
    // (the built-in server stopped, say) takes none; then the journal opened for the service, holding the folder.
    const lockFile = resolve(flags.dataDir, LOCK_FILE);
    await unlessHeld(flags.dataDir, logger, async () => {
      if (existsSync(lockFile)) await (await acquireProcessLock(lockFile, 'uploader', '--data-dir', { say: (m) => logger.warn(m) })).release();
    });
    if (flags.localServer) await session.startLocalServer();
    await unlessHeld(flags.dataDir, logger, () => session.queue());
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
