/** `payroll-uploader watch <folder>`: watches a folder and uploads what the payroll system exports into it. */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isCandidateName } from '../core/watcher';
import { createLogger } from '../lib/logger';
import { openAppSession } from './app-session';
import { openCliContext, usageErrors } from './cli-context';
import { EXIT, UsageError } from './usage-error';
import { attachOutput } from './watch-output';

export const WATCH_USAGE = `Usage: payroll-uploader watch <folder> [--env local|sandbox|production] [--base-url URL] [--once] [--json]

  Watches <folder> and uploads every finished *.csv export through the file handshake; files are then
  moved to uploaded/<date>/, rejected/ (with <name>.error.txt) or duplicates/.
  --env local   starts the embedded local server itself (unless --base-url is given)
  --once        handles the files there now, waits for their uploads, and exits
                (exit code 1 when any file failed: for scheduled tasks)
  --max-wait S  with --once: how long to wait for a file still being written (default 600 s);
                a file still changing then stays in place for the next run (exit code 1)
  --json        one JSON line per event on standard output`;

/** How long `--once` waits, by default, for a file to stop changing. */
const DEFAULT_MAX_WAIT_S = 600;

/** The candidate files in the folder right now. */
async function candidates(folder: string): Promise<Set<string>> {
  const found = new Set<string>();
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (isCandidateName(entry.name) && (entry.isFile() || entry.isSymbolicLink())) found.add(join(folder, entry.name));
  }
  return found;
}

export async function watchCommand(args: string[]): Promise<number> {
  const { values, positionals } = usageErrors(() => parseArgs({
    args, allowPositionals: true, strict: true,
    options: { env: { type: 'string' }, 'base-url': { type: 'string' }, once: { type: 'boolean' }, json: { type: 'boolean' }, 'max-wait': { type: 'string' } },
  }));
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'give exactly one folder' : 'which folder? payroll-uploader watch <folder>');
  const folder = resolve(positionals[0]!);
  const maxWait = values['max-wait'] ?? String(DEFAULT_MAX_WAIT_S);
  if (!/^\d+$/.test(maxWait) || Number(maxWait) < 1) throw new UsageError(`--max-wait must be a whole number of seconds, not "${maxWait}"`);
  if (values['max-wait'] !== undefined && !values.once) throw new UsageError('--max-wait goes with --once');
  const info = await stat(folder).catch(() => undefined);
  if (values.once && !info?.isDirectory()) throw new Error(`${folder} is not a folder`);

  const logger = createLogger('watch');
  const ctx = openCliContext();
  const session = await openAppSession(ctx, {
    env: values.env, baseUrl: values['base-url'], embedLocal: true,
    ...(values.once ? { retry: { giveUp: true, failAfter: 5, maxMs: 30_000 } } : {}),
  }, logger);
  const { app } = session;
  const detach = attachOutput(app, { json: Boolean(values.json), tty: Boolean(process.stderr.isTTY) && !values.json });
  try {
    if (!values.once) {
      if (!info?.isDirectory()) process.stderr.write(`${folder} does not exist yet; waiting for it\n`);
      await app.watch(folder);
      logger.info(`watching ${folder} (${app.profile}, ${app.baseUrl}); Ctrl+C stops`);
      await new Promise<void>((done) => {
        process.once('SIGINT', done);
        process.once('SIGTERM', done);
      });
      return EXIT.ok;
    }
    const pending = await candidates(folder);
    const watcher = await app.watch(folder);
    watcher.on('stable', (file) => pending.delete(file.path));
    // A scheduled run must end: a file still changing after this long is left for the next run.
    const deadline = Date.now() + Number(maxWait) * 1000;
    while (pending.size > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      for (const path of pending) if (!(await stat(path).catch(() => undefined))) pending.delete(path);
    }
    await app.stopWatching();
    await app.idle();
    const failures = app.failures();
    for (const path of pending) process.stderr.write(`not taken: ${path} was still changing after ${maxWait} s; it stays in place for the next run\n`);
    if (!values.json) {
      for (const job of failures) process.stderr.write(`failed: ${job.name}: ${job.lastError ?? job.state}\n`);
    }
    return failures.length > 0 || pending.size > 0 ? EXIT.failure : EXIT.ok;
  } finally {
    detach();
    await session.close();
  }
}
