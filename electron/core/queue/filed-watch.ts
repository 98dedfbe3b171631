/**
 * Rows written after a file was filed away. An export tool that pauses longer than the stability wait looks finished:
 * the file is read, sent and filed while the tool still holds it open, and what it writes next goes into that same
 * file. On one drive that is the filed file (the move keeps the file, under a new name). Onto another drive the filed
 * file is a copy; the original is not deleted but held aside on its own drive (archive.ts, holdOriginal), so those
 * rows are not lost in a deleted file. For a while after filing the queue watches the file: one that changed is kept
 * and the clerk is told where it is and that the rows written late were not sent; a held original that stayed
 * unchanged is deleted at the end (the filed copy holds its bytes). Changed means other bytes: a backup tool, an
 * antivirus, `touch` or a copy tool that only sets the modification time is not taken for rows written late. A file
 * missing from a folder that does not answer (a share that dropped) is not taken for moved away: the watch goes on.
 */
import type { Stats } from 'node:fs';
import { lstat, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Settings } from '../../../shared/settings.schema';
import { describeError, errorCode, isGone } from '../../lib/fs-errors';
import { md5File } from '../../lib/md5-file';
import { printableName } from '../../lib/printable-name';
import { freeTarget, keepFiledFileToOwner, makeFilingFolder, moveNoClobber } from './archive';
import type { Job } from './job-types';
import type { JobPatch } from './journal';
import type { QueueCore } from './queue-core';
import { failureOf, folderAnswers, lookAt } from './unreachable';

/**
 * Beside a file filed onto another drive: `<its folder>/.payroll-held/<job id>-<found at>/<name>`. Hidden: the watcher
 * skips it.
 */
export const HOLD_FOLDER = '.payroll-held';
/** In the watched folder: held originals that were written to after they were filed. */
export const NOT_SENT_FOLDER = 'not-sent';

/** How long a filed file is watched: ten minutes, or three stability waits when those are longer. */
export function afterFilingMs(settings: Settings): number {
  return Math.max(10 * 60_000, 3 * settings.stabilityMs);
}

/** How long this queue watches a filed file (tests set it on the core). */
const watchMsOf = (core: QueueCore): number => core.afterFilingMs ?? afterFilingMs(core.settings());

/**
 * When each watch ends on this machine's monotonic clock, by queue and job. `watchUntil` is journaled as a wall time,
 * since a restart must know it; but within a run the computer's clock may be set forward (NTP, a time-zone fix: the
 * held original would be deleted at once, and rows the tool writes next lost with it) or back (the watch stretched by
 * the size of the jump), so the time left is counted here, as the retries' is (upload-queue.ts, dueIn).
 */
type WatchEnd = { until: number; mono: number };
const watchEnds = new WeakMap<QueueCore, Map<number, WatchEnd>>();

function endsOf(core: QueueCore): Map<number, WatchEnd> {
  let ends = watchEnds.get(core);
  if (!ends) watchEnds.set(core, (ends = new Map<number, WatchEnd>()));
  return ends;
}

/** Starts the watch of a job's filed file: its end as journaled (a wall time), the end on the monotonic clock noted. */
export function watchEndFromNow(core: QueueCore, jobId: number): number {
  const ms = watchMsOf(core);
  const until = core.now() + ms;
  endsOf(core).set(jobId, { until, mono: performance.now() + ms });
  return until;
}

/**
 * Milliseconds left of a job's watch. A watch this run did not start (one journaled before a restart) is counted from
 * its journaled end, but never for longer than a whole watch: the clock may have been set back since.
 */
function watchLeft(core: QueueCore, job: Job): number {
  const ends = endsOf(core);
  const until = job.watchUntil ?? 0;
  let end = ends.get(job.id);
  if (!end || end.until !== until) {
    const left = Math.min(Math.max(0, until - core.now()), watchMsOf(core));
    ends.set(job.id, (end = { until, mono: performance.now() + left }));
  }
  return end.mono - performance.now();
}

/** Ends a job's watch in the journal. */
function endWatch(core: QueueCore, job: Job, patch: JobPatch = {}): void {
  core.write(job.id, { watchUntil: null, heldPath: null, ...patch });
  endsOf(core).delete(job.id);
}

/**
 * Where the original of a job's file is held when it is filed onto another drive (on its own drive). Named by the job
 * id and the time the job was journaled (`createdAt`, epoch ms): a journal made new (a damaged one removed) numbers
 * its jobs from 1 again, and an original held by the old journal may still be there, its watch unknown to the new
 * one; by the id alone a new job's original of the same name would find that path taken, be refused (moves never
 * replace a file) and its file never filed. Both are journaled before the move, so a restart after a crash finds the
 * same path (archive-step.ts).
 */
export function holdPathOf(job: Job): string {
  return join(dirname(job.path), HOLD_FOLDER, `${job.id}-${job.createdAt}`, basename(job.path));
}

/**
 * The watched file as it is now; undefined when it is gone (moved or deleted by someone, its folder too, say a
 * `.payroll-held/` someone cleaned up): not there while the folder it is watched under answers, the watched folder for
 * a held original, the archive root for a filed file. Throws while that folder does not answer (a network share that
 * dropped answers "no such file" for every path in it): nothing can be said of the file then, and the next look
 * decides.
 */
async function lookAtWatched(core: QueueCore, job: Job, path: string): Promise<Stats | undefined> {
  try {
    return await lookAt(path);
  } catch (error) {
    const found = dirname(job.claimedFrom ?? job.path);
    const under = job.heldPath ? found : core.settings().archive.dir ?? found;
    const code = errorCode(failureOf(error));
    if ((code === 'ENOENT' || code === 'ENOTDIR') && (await folderAnswers(under))) return undefined;
    throw error;
  }
}

/** Removes a held original and its (then empty) folders. */
async function release(heldPath: string): Promise<void> {
  await unlink(heldPath).catch((error: unknown) => {
    if (!isGone(error)) throw error;
  });
  await rmdir(dirname(heldPath)).catch(() => undefined);
  await rmdir(dirname(dirname(heldPath))).catch(() => undefined);
}

/**
 * Moves a file of the job that was written to after it was read (a held original, or the file itself) into
 * `<watched folder>/not-sent/` (made owner-only, and the file kept to its owner, as in the archive folders), where the
 * clerk finds it; it stays where it is when that folder cannot be made on its drive (a move onto another drive would
 * be a copy, and the tool may still be writing). Returns where it is now.
 */
export async function keepInSight(core: QueueCore, job: Job, heldPath: string): Promise<string> {
  const dir = join(dirname(job.claimedFrom ?? job.path), NOT_SENT_FOLDER);
  try {
    await makeFilingFolder(dir);
    const [held, folder] = await Promise.all([lstat(heldPath), lstat(dir)]);
    if (held.dev !== folder.dev) return heldPath;
    const target = await freeTarget(dir, job.name, false);
    if ((await moveNoClobber(heldPath, target)) !== 'moved') return heldPath;
    await keepFiledFileToOwner(target);
    await rmdir(dirname(heldPath)).catch(() => undefined);
    await rmdir(dirname(dirname(heldPath))).catch(() => undefined);
    return target;
  } catch (error) {
    core.logger.warn(`${printableName(job.name)}: it could not be moved to ${printableName(dir)}: ${describeError(error)}; it stays in ${printableName(heldPath)}`);
    return heldPath;
  }
}

/**
 * What the clerk is to do about rows an export tool wrote after its file was uploaded. Not "export it again": the whole
 * file again would send the rows the service already has a second time (receipts counted twice).
 */
export const LATE_ROWS_ADVICE = 'If an export tool was still writing it, send only the rows the service lacks, in a file '
  + 'of their own (the service has the others); and set the stability wait in Settings above the longest pause of the '
  + 'tool, or have it write under a temporary name and rename the file when it is done.';

const AFTER = { uploaded: 'it was uploaded', rejected: 'it was refused', duplicate: 'it was found to be a duplicate' } as const;

/**
 * The watched file changed after filing: kept, and the clerk is told where it is. The words name what is known: the
 * file changed (an export tool still writing it, or an edit of the filed copy); for an uploaded file, what changed was
 * not sent. A refused or duplicate job keeps its reason as it was: this is said beside it.
 */
async function keepChanged(core: QueueCore, job: Job): Promise<void> {
  const name = printableName(job.name);
  const after = AFTER[job.state as keyof typeof AFTER] ?? 'it was filed';
  const filed = printableName(job.archivedPath ?? '');
  const sent = job.state === 'uploaded';
  let where: string;
  if (job.heldPath) {
    const kept = printableName(await keepInSight(core, job, job.heldPath));
    where = `${filed} holds the file as it was then; the whole file as it is now is kept in ${kept}`;
  } else {
    where = `the changed file is ${filed}`;
  }
  const advice = sent ? LATE_ROWS_ADVICE
    : 'If an export tool was still writing it, set the stability wait in Settings above the longest pause of the tool.';
  const note = `${name} changed after ${after} and was filed away${sent ? ': what changed was not sent' : ''}; ${where}. ${advice}`;
  endWatch(core, job, sent ? { lastError: note } : {});
  core.logger.warn(note);
  core.emit('error', new Error(note));
}

/**
 * Whether the watched file, of the same size as the version read but with another modification or status-change time,
 * still holds the bytes that were read (its MD5): a backup tool, an antivirus, `touch` or a copy tool that sets the time
 * changes no byte. 'same' journals the times seen, so the file is not read again at every look (the journaled
 * `mtimeMs` and `ctimeMs` of a filed job are the watched file's; watchAfterFiling set them). 'looking' when it was
 * written to while read: the next look decides. Without a checksum (a file refused before it was read) any change
 * counts.
 */
async function sameBytes(core: QueueCore, job: Job, watched: string, info: Stats): Promise<'same' | 'changed' | 'looking'> {
  if (!job.md5 || !info.isFile()) return 'changed';
  const md5 = await md5File(watched);
  const after = await lookAt(watched);
  if (!after || after.size !== info.size || after.mtimeMs !== info.mtimeMs || after.ctimeMs !== info.ctimeMs || after.ino !== info.ino) {
    return 'looking';
  }
  if (md5 !== job.md5) return 'changed';
  core.write(job.id, { mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs });
  return 'same';
}

async function checkOne(core: QueueCore, job: Job): Promise<void> {
  const watched = job.heldPath ?? job.archivedPath;
  const info = watched ? await lookAtWatched(core, job, watched) : undefined;
  if (!info || !watched) {
    // Moved or deleted by someone (a held original too): nothing is left to watch or to remove.
    endWatch(core, job);
    return;
  }
  if (info.size !== job.size) return keepChanged(core, job);
  // The status-change time too: a tool that overwrote the bytes in place and set the modification time back (a copy
  // that keeps the source's times) cannot set it back.
  if (info.mtimeMs !== job.mtimeMs || (job.ctimeMs !== undefined && info.ctimeMs !== job.ctimeMs)) {
    const bytes = await sameBytes(core, job, watched, info);
    if (bytes === 'changed') return keepChanged(core, job);
    if (bytes === 'looking') return;
  }
  if (watchLeft(core, job) > 0) return;
  if (job.heldPath) await release(job.heldPath);
  endWatch(core, job);
}

/** One look at every filed file still watched (of the jobs `mine` accepts). Failures are tried again at the next look. */
export async function checkFiledFiles(core: QueueCore, mine: (job: Job) => boolean): Promise<void> {
  for (const job of core.journal.watchedJobs()) {
    if (!mine(job)) continue;
    try {
      await checkOne(core, job);
    } catch (error) {
      core.logger.debug(`${printableName(job.name)}: looking at the filed file failed: ${describeError(error)}; looked at again shortly`);
    }
  }
}
