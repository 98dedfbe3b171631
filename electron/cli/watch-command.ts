/** `payroll-uploader watch <folder>`: watches a folder and uploads what the payroll system exports into it. */
import { lstat, readdir, stat } from 'node:fs/promises';
import { NotFiledError, unfinishedWords, whenJournalLost, type Job } from '../core/queue';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UnreadableFileError, isCandidateName, unreadableFolderMessage } from '../core/watcher';
import { isDenied, isGone } from '../lib/fs-errors';
import { createLogger } from '../lib/logger';
import { printableName, printableText } from '../lib/printable-name';
import { whenLockLost } from '../lib/process-lock';
import { baseUrlOf } from '../../shared/settings.schema';
import { openCliContext, usageErrors } from './cli-context';
import { openCliSession } from './cli-session';
import { EXIT, UsageError } from './usage-error';
import { describeImport, describeUnknownImport } from './watch-import';
import { attachOutput } from './watch-output';

/** How long, by default, an uploaded file's processing result is waited for in local mode (PAYROLL_RESULT_WAIT_S). */
const DEFAULT_RESULT_WAIT_S = 60;

export const WATCH_USAGE = `Usage: payroll-uploader watch [<folder>] [--env local|sandbox|production] [--base-url URL] [--once [--max-wait S]] [--json]

  Watches <folder> (default: the watchedFolder setting) and uploads every finished *.csv export through the
  file handshake; files are then moved to uploaded/<date>/, rejected/ (with <name>.error.txt) or duplicates/.
  --env local   starts the embedded local server itself (unless --base-url is given), and shows each
                file's processing result once the server has processed it; without --env, so does a
                Local profile that names that server (a Local address of your own is used as it is)
  --once        handles the files there now, waits for their uploads, and exits
                (exit code 1 when any file failed: for scheduled tasks; in local mode also
                when the service refused a file, or any of its rows, after its upload)
  --max-wait S  with --once: how long to wait for a file still being written (default 600 s);
                a file still changing then stays in place for the next run (exit code 1); so does
                a file that cannot be read (access denied, or locked through the retries), said at once
  --json        one JSON line per event on standard output
  Exit code 3: another uploader already works on this data folder.
  Exit code 4 (--once, local mode): every file went up and none failed, but the processing result of one or more
  was not known after ${DEFAULT_RESULT_WAIT_S} s (PAYROLL_RESULT_WAIT_S): said per file, with where to ask for it.
  Exit code 1 also when the data folder is removed (or taken by another uploader) while this one runs: it stops.`;

/** How long `--once` waits, by default, for a file to stop changing. */
const DEFAULT_MAX_WAIT_S = 600;

/**
 * `PAYROLL_RESULT_WAIT_S`: how long a file's processing result is waited for after its upload (a big file takes the
 * local server a while), in seconds.
 */
function resultWaitS(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PAYROLL_RESULT_WAIT_S;
  if (raw === undefined || raw === '') return DEFAULT_RESULT_WAIT_S;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`PAYROLL_RESULT_WAIT_S must be a whole number of seconds, not "${raw}"`);
  return Number(raw);
}

/** The candidate files in the folder right now; a folder this user may not list is said in plain words. */
async function candidates(folder: string): Promise<Set<string>> {
  const found = new Set<string>();
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
    throw isDenied(error) ? new Error(unreadableFolderMessage(folder), { cause: error }) : error;
  });
  for (const entry of entries) {
    if (isCandidateName(entry.name) && !entry.isDirectory()) found.add(join(folder, entry.name));
  }
  return found;
}

export async function watchCommand(args: string[]): Promise<number> {
  const { values, positionals } = usageErrors(() => parseArgs({
    args, allowPositionals: true, strict: true,
    options: { env: { type: 'string' }, 'base-url': { type: 'string' }, once: { type: 'boolean' }, json: { type: 'boolean' }, 'max-wait': { type: 'string' } },
  }));
  if (positionals.length > 1) throw new UsageError('give exactly one folder');
  const maxWait = values['max-wait'] ?? String(DEFAULT_MAX_WAIT_S);
  if (!/^\d+$/.test(maxWait) || Number(maxWait) < 1) throw new UsageError(`--max-wait must be a whole number of seconds, not "${maxWait}"`);
  if (values['max-wait'] !== undefined && !values.once) throw new UsageError('--max-wait goes with --once');
  const ctx = openCliContext();
  const given = positionals[0] ?? ctx.settings.get().watchedFolder;
  if (given === undefined) {
    throw new UsageError(`which folder? payroll-uploader watch <folder>, or set "watchedFolder" in the settings file ${ctx.settings.path}`);
  }
  const folder = resolve(given);
  // The folder as this command says it: a line break in its path cannot break or forge a line of output or of the log.
  const shownFolder = printableText(folder);
  // Nothing there is waited for (it may be a network drive not connected yet), but a file is a mistake to say at once.
  let missing = false;
  const info = await stat(folder).catch((error: unknown) => {
    // Access denied on the way to it: --once says so here; a lasting watch says it once and waits for access.
    if (values.once && isDenied(error)) throw new Error(unreadableFolderMessage(folder), { cause: error });
    missing = isGone(error);
    return undefined;
  });
  if (info && !info.isDirectory()) {
    throw new UsageError(`${shownFolder} is a file, not a folder: give the folder the payroll system saves its exports in`);
  }
  if (values.once && !info) throw new Error(`${shownFolder} is not a folder`);

  const logger = createLogger('watch');
  const json = Boolean(values.json);
  let detach: () => void = () => undefined;
  // Ends the run in order, as Ctrl+C does: set below, once the run can stop; a closed output (the reader went away)
  // or a lost lock before then stops it as soon as it can.
  let stopEarly = false;
  let interrupt: () => void = () => {
    stopEarly = true;
  };
  const session = await openCliSession(ctx, {
    env: values.env, baseUrl: values['base-url'], folder, embedLocal: true,
    ...(values.once ? { retry: { giveUp: true, failAfter: 5, maxMs: 30_000 } } : {}),
  }, logger, (opened) => {
    detach = attachOutput(opened, { json, tty: Boolean(process.stderr.isTTY) && !json }, process.stdout, process.stderr, () => interrupt());
  });
  const profile = session.profile();
  let interrupted = false;
  let stopAsking = (): void => undefined;
  // In local mode the clerk sees what the service made of each file: rows accepted and refused, with reasons. A file
  // whose import ended with rows refused, or refused as a whole, failed (watch-import.ts): --once exits 1 for it.
  // A file whose result is not known when the wait ends (processing slow, the server unreachable) is not called done
  // either: it may have rows refused. It is said, with where to ask, and --once exits 4 for it (unless a file failed).
  const results = new Set<Promise<void>>();
  const importsFailed = new Set<number>();
  const importsUnknown = new Set<number>();
  if (profile === 'local') {
    const waitS = resultWaitS();
    let closing = false;
    const unknown = (job: Job, importId: string, why: { waitS: number } | { fetchError: string }) => {
      // A run stopping (Ctrl+C, a lost lock) asks no more; it says what was interrupted instead.
      if (closing || interrupted) return;
      importsUnknown.add(job.id);
      // Where the file went: the built-in server this run started (stopped with it), or the Local address used.
      const server = session.localServer.running()?.url ?? baseUrlOf(session.settings(), 'local') ?? '';
      const text = describeUnknownImport(job.name, importId, server, why);
      if (json) {
        const data = { id: importId, name: job.name, ...('waitS' in why ? { waitedS: why.waitS } : { reason: why.fetchError }) };
        process.stdout.write(`${JSON.stringify({ event: 'importUnknown', at: new Date().toISOString(), data })}\n`);
      } else process.stderr.write(`${text}\n`);
    };
    session.on('result', (job) => {
      const importId = job.importId;
      if (job.state !== 'uploaded' || !importId) return;
      const shown = session.importResult(importId, waitS * 1000).then(async (result) => {
        if (!result) return unknown(job, importId, { waitS });
        // Kept in the journal too, as the desktop app keeps it (import-results.ts): History then shows what the
        // service made of the file. A journal that cannot note it (lost, full disk) only loses that note: the result
        // is still said, and counts.
        try {
          (await session.queue()).keepImportResult({ job: job.id }, result);
        } catch (error) {
          logger.warn(`the processing result of ${printableName(job.name)} could not be kept for History: ${(error as Error).message}`);
        }
        const outcome = describeImport(job.name, result);
        if (outcome.failed) importsFailed.add(job.id);
        if (json) process.stdout.write(`${JSON.stringify({ event: 'import', at: new Date().toISOString(), data: result })}\n`);
        // A failure is said on standard error, like every other failure.
        else (outcome.failed ? process.stderr : process.stdout).write(`${outcome.text}\n`);
      }, (error: Error) => unknown(job, importId, { fetchError: error.message }));
      results.add(shown);
      void shown.finally(() => results.delete(shown));
    });
    stopAsking = () => {
      closing = true;
    };
  }
  // A scheduled run counts the files there now; each is done once the watcher has handed it over.
  const pending = values.once ? await candidates(folder) : new Set<string>();
  session.on('taken', ({ path }) => pending.delete(path));
  // A file the watcher could not read after its retries (access denied, a lock that stayed) is not waited for any
  // longer: it would only be called "still changing" at the end of --max-wait. Nor is one handed over that could
  // not be taken up (the folder cannot be written to claim it, the journal cannot take it): it stays in the folder,
  // and the run has failed for it, unless a later try journals it after all.
  const notTaken = new Map<string, string>();
  // Why a file that reached its outcome could not be filed away, for its line at the end (by job id).
  const notFiled = new Map<number, string>();
  session.on('error', (error) => {
    if (error instanceof UnreadableFileError && pending.delete(error.path)) notTaken.set(error.path, error.reason);
    if (error instanceof NotFiledError) notFiled.set(error.jobId, error.reason);
  });
  if (values.once) {
    session.on('untaken', ({ path, reason }) => {
      pending.delete(path);
      notTaken.set(path, reason);
    });
    session.on('job', (job) => notTaken.delete(job.claimedFrom ?? job.path));
  }
  // The data folder's lock lost (the folder removed, another process holding it now): this uploader must stop at once,
  // or two would work on one journal's claims.
  let lockLost = false;
  const dataDir = resolve(ctx.dataDir);
  const stopFor = (what: string) => (lost: { path: string }): void => {
    if (lockLost || resolve(dirname(lost.path)) !== dataDir) return;
    // The session says why (an error event: a warning line, or a JSON line with --json); the run ends with exit code 1.
    lockLost = true;
    process.stderr.write(`payroll-uploader watch: stopped, as ${what} (its error message says why)\n`);
    interrupt();
  };
  // The same when the journal's file was removed, emptied or replaced under it: nothing more can be journaled.
  const unsubscribeLock = whenLockLost(stopFor('the data folder\'s lock was lost'));
  const unsubscribeJournal = whenJournalLost(stopFor('the upload journal was lost'));
  const stopped = new Promise<void>((done) => {
    const onSignal = () => {
      interrupted = true;
      done();
    };
    interrupt = onSignal;
    if (stopEarly) onSignal();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  const sayInterrupted = async () => {
    const open = (await session.queue()).unfinished();
    if (open.length === 0) return;
    const names = open.slice(0, 5).map((job) => printableName(job.name)).join(', ');
    process.stderr.write(`interrupted: ${open.length} file(s) not finished (${names}${open.length > 5 ? ', ...' : ''}); they resume at the next start\n`);
  };
  try {
    if (!values.once) {
      if (missing) process.stderr.write(`${shownFolder} does not exist yet; waiting for it\n`);
      await session.watch.start();
      logger.info(`watching ${shownFolder} (${profile}, ${baseUrlOf(session.settings(), profile) ?? ''}); Ctrl+C stops`);
      await stopped;
      if (lockLost) return EXIT.failure;
      await sayInterrupted();
      return EXIT.ok;
    }
    await session.watch.start();
    // A scheduled run must end: a file still changing after this long is left for the next run. Counted on the
    // monotonic clock: the computer's clock set forward (NTP, a time-zone fix) must not end the wait at once, nor one
    // set back stretch it past the next scheduled run.
    const deadline = performance.now() + Number(maxWait) * 1000;
    while (pending.size > 0 && performance.now() < deadline && !interrupted) {
      await new Promise((r) => setTimeout(r, 250));
      for (const path of pending) if (!(await lstat(path).catch(() => undefined))) pending.delete(path);
    }
    await session.watch.stop();
    await Promise.race([session.idle(), stopped]);
    if (interrupted) {
      if (!lockLost) await sayInterrupted();
      return EXIT.failure;
    }
    await Promise.race([Promise.allSettled([...results]), stopped]);
    const failures = (await session.queue()).failures();
    for (const path of pending) process.stderr.write(`not taken: ${printableName(basename(path))} was still changing after ${maxWait} s; it stays in place for the next run\n`);
    for (const [path, reason] of notTaken) process.stderr.write(`not taken: ${printableName(basename(path))}: ${reason}; it stays in place for the next run\n`);
    if (!json) {
      // Refused files were said when they were filed away; here only what is left unfinished.
      for (const job of failures) {
        if (job.archivedAt !== undefined && job.notJournaled === undefined) continue;
        const why = job.notJournaled !== undefined ? `its progress could not be written to the upload journal: ${job.notJournaled}` : unfinishedWords(job, notFiled.get(job.id));
        process.stderr.write(`failed: ${printableName(job.name)}: ${why}; it stays queued for the next run\n`);
      }
    }
    if (failures.length > 0 || importsFailed.size > 0 || pending.size > 0 || notTaken.size > 0) return EXIT.failure;
    return importsUnknown.size > 0 ? EXIT.resultUnknown : EXIT.ok;
  } finally {
    stopAsking();
    unsubscribeLock();
    unsubscribeJournal();
    detach();
    await session.close();
  }
}
