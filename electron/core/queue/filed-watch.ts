/**
 * Rows written after a file was filed away. An export tool that pauses longer than the stability wait looks finished:
 * the file is read, sent and filed while the tool still holds it open, and what it writes next goes into that same
 * file. On one drive that is the filed file (the move keeps the file, under a new name). Onto another drive the filed
 * file is a copy; the original is not deleted but held aside on its own drive (archive.ts, holdOriginal), so those
 * rows are not lost in a deleted file. For a while after filing the queue watches the file: one that changed is kept
 * and the clerk is told where it is and that the rows written late were not sent; a held original that stayed
 * unchanged is deleted at the end (the filed copy holds its bytes).
 */
import { lstat, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Settings } from '../../../shared/settings.schema';
import { describeError, isGone } from '../../lib/fs-errors';
import { printableName } from '../../lib/printable-name';
import { freeTarget, keepFiledFileToOwner, makeFilingFolder, moveNoClobber } from './archive';
import type { Job } from './job-types';
import type { QueueCore } from './queue-core';

/** Beside a file filed onto another drive: `<its folder>/.payroll-held/<job id>/<name>`. Hidden: the watcher skips it. */
export const HOLD_FOLDER = '.payroll-held';
/** In the watched folder: held originals that were written to after they were filed. */
export const NOT_SENT_FOLDER = 'not-sent';

/** How long a filed file is watched: ten minutes, or three stability waits when those are longer. */
export function afterFilingMs(settings: Settings): number {
  return Math.max(10 * 60_000, 3 * settings.stabilityMs);
}

/** Where the original of a job's file is held when it is filed onto another drive (on its own drive). */
export function holdPathOf(job: Job): string {
  return join(dirname(job.path), HOLD_FOLDER, String(job.id), basename(job.path));
}

async function lookAt(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    if (isGone(error)) return undefined;
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
  core.write(job.id, { watchUntil: null, heldPath: null, ...(sent ? { lastError: note } : {}) });
  core.logger.warn(note);
  core.emit('error', new Error(note));
}

async function checkOne(core: QueueCore, job: Job): Promise<void> {
  const watched = job.heldPath ?? job.archivedPath;
  const info = watched ? await lookAt(watched) : undefined;
  if (!info) {
    // Moved or deleted by someone (a held original too): nothing is left to watch or to remove.
    core.write(job.id, { watchUntil: null, heldPath: null });
    return;
  }
  if (info.size !== job.size || info.mtimeMs !== job.mtimeMs) return keepChanged(core, job);
  if (core.now() < (job.watchUntil ?? 0)) return;
  if (job.heldPath) await release(job.heldPath);
  core.write(job.id, { watchUntil: null, heldPath: null });
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
