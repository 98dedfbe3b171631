/**
 * uploaded/rejected/duplicate -> archived: the file moves to its folder; the move is journaled before it happens.
 * Only the very version the outcome is about is filed away: a file replaced or appended to since it was read is a
 * new version, queued again (the outcome of the earlier version is kept in the journal, nothing is moved).
 */
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access, lstat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { identityOf } from '../watcher/stable-file';
import { archiveDir, completeMove, errorNotePath, freeTarget, warningsNotePath, writeErrorFile, writeWarningsFile } from './archive';
import { LATE_ROWS_ADVICE, NOT_SENT_FOLDER, holdPathOf, keepInSight, watchEndFromNow } from './filed-watch';
import type { JobPatch } from './journal';
import { localDay } from './file-facts';
import { describeError, errorCode } from '../../lib/fs-errors';
import { retryDelayMs } from './backoff';
import { isOutcome, serviceOf, type Job, type OutcomeState } from './job-types';
import type { QueueCore } from './queue-core';
import { md5File } from '../../lib/md5-file';
import { printableName, printableText } from '../../lib/printable-name';
import { accountName, ownerOf, refusingFolderOf } from '../../lib/refusing-folder';
import { failureOf, lookAt, unreachableFolderOf } from './unreachable';

/** The text of `<name>.error.txt`: why, and the row problems with their line numbers. */
export function errorFileText(job: Job, at: number): string {
  const lines = [`${printableName(job.name)} was not uploaded.`, '', `Reason: ${job.lastError ?? 'unknown'}`];
  if (job.warnings.length > 0) {
    lines.push('', job.warningCount > job.warnings.length
      ? `Row problems (the first ${job.warnings.length} of ${job.warningCount}):`
      : 'Row problems:');
    for (const w of job.warnings) lines.push(`  ${w.line !== undefined ? `line ${w.line}: ` : ''}${w.message}`);
  }
  lines.push('', `Checked ${new Date(at).toLocaleString()} by Payroll Uploader. Fix the file and save it into the watched folder again.`, '');
  return lines.join('\n');
}

/** The text of `<name>.warnings.txt` beside an uploaded file whose rows had problems (uploaded anyway in 'warn' mode). */
export function warningsFileText(job: Job, at: number): string {
  const lines = [
    `${printableName(job.name)} was uploaded, but ${job.warningCount} row(s) have problems; the service refuses those rows and accepts the others.`,
    '', job.warningCount > job.warnings.length ? `Row problems (the first ${job.warnings.length} of ${job.warningCount}):` : 'Row problems:',
  ];
  for (const w of job.warnings) lines.push(`  ${w.line !== undefined ? `line ${w.line}: ` : ''}${w.message}`);
  lines.push('', `Uploaded ${new Date(job.uploadedAt ?? at).toLocaleString()} by Payroll Uploader${job.importId ? ` (import ${job.importId})` : ''}.`, '');
  return lines.join('\n');
}

/**
 * Whether the file at the job's path is still the version the outcome is about: same size, and the same identity,
 * modification time and status-change time, or (when only those differ: a tool that rewrote the same bytes, or set
 * the modification time back after a change) the same checksum.
 */
async function versionAtPath(job: Job): Promise<'same' | 'changed' | 'gone'> {
  // Gone only from a folder that answers: a share that dropped throws (FolderUnreachableError), and filing waits.
  const info = await lookAt(job.path);
  if (!info) return 'gone';
  // A path refused without being read as a file (a link, a pipe, a folder named x.csv) is moved as it is, unless
  // another one took its place.
  if (!info.isFile()) return job.identity === undefined || job.identity === identityOf(info) ? 'same' : 'changed';
  if (info.size !== job.size) return 'changed';
  const sameIdentity = job.identity === undefined || job.identity === identityOf(info);
  const sameCtime = job.ctimeMs === undefined || job.ctimeMs === info.ctimeMs;
  if (sameIdentity && info.mtimeMs === job.mtimeMs && sameCtime) return 'same';
  if (!job.md5) return 'changed';
  return (await md5File(job.path)) === job.md5 ? 'same' : 'changed';
}

/** Whether the file at the job's path is its uploaded version with more written after it (an export tool still writing). */
async function grewFrom(job: Job): Promise<boolean> {
  if (job.state !== 'uploaded' || !job.md5 || job.size === 0) return false;
  const info = await lstat(job.path).catch(() => undefined);
  if (!info?.isFile() || info.size <= job.size) return false;
  const hash = createHash('md5');
  await pipeline(createReadStream(job.path, { start: 0, end: job.size - 1 }), hash);
  return hash.digest('hex') === job.md5;
}

/**
 * The uploaded version of the file had more rows written after it (an export tool that paused longer than the
 * stability wait, then went on while the file was being sent). Sent again, the whole file would send the rows the
 * service holds a second time: it is kept in not-sent/, unsent, and the clerk is told. The job stays uploaded.
 */
async function keepGrownFile(core: QueueCore, job: Job): Promise<void> {
  const keptAt = await keepInSight(core, job, job.path);
  // Left where it is, it would be taken up as a new file and sent: the job stays unfiled, and this is tried again.
  if (keptAt === job.path) throw new Error(`${printableName(job.name)} grew after it was uploaded and could not be moved to ${NOT_SENT_FOLDER}/`);
  const kept = printableName(keptAt);
  const note = `${printableName(job.name)} changed after it was read and uploaded: the service holds it as it was then `
    + `(${job.size} bytes${job.importId ? `, import ${job.importId}` : ''}); the rows written after that were not sent, and the `
    + `file as it is now is kept in ${kept}, not sent, since it would send the rows the service has a second time. ${LATE_ROWS_ADVICE}`;
  core.logger.warn(note);
  const finished = core.write(job.id, { archivedAt: core.now(), archiveTarget: null, nextAttemptAt: null, lastError: note });
  core.emit('error', new Error(note));
  core.emit('result', finished);
}

/**
 * The file changed after its version was read: that job ends unfiled, and the file is queued again as a new job;
 * unless rows were only added to an uploaded version (keepGrownFile).
 */
async function requeueNewVersion(core: QueueCore, job: Job): Promise<void> {
  if (await grewFrom(job)) return keepGrownFile(core, job);
  const info = await lstat(job.path).catch(() => undefined);
  const facts = info ? { size: info.size, mtimeMs: info.mtimeMs, identity: identityOf(info) } : { size: job.size, mtimeMs: job.mtimeMs };
  const what = job.state === 'uploaded' ? 'the earlier version was uploaded' : `the earlier version was ${job.state === 'duplicate' ? 'a duplicate' : 'refused'}`;
  const note = `the file changed after it was read (${what}); the new version is queued again and this file was not filed away`;
  core.logger.warn(`${printableName(job.name)}: ${note}`);
  const at = core.now();
  const finished = core.atomically(() => {
    const done = core.write(job.id, { archivedAt: at, archiveTarget: null, nextAttemptAt: null, lastError: job.state === 'rejected' ? `${job.lastError ?? ''}; ${note}` : note });
    const fresh = core.journal.insertJob(
      { path: job.path, name: job.name, ...facts, ...(job.claimedFrom ? { claimedFrom: job.claimedFrom } : {}) },
      at, localDay(at), serviceOf(job),
    );
    core.emit('job', fresh);
    return done;
  });
  core.emit('result', finished);
}

/** The folder a finished job's file is filed into: beside where it was found, or in the archive folder of Settings. */
function archiveDirOf(core: QueueCore, job: Job): { root: string; dir: string } {
  const root = core.settings().archive.dir ?? dirname(job.claimedFrom ?? job.path);
  return { root, dir: archiveDir(root, job.state as OutcomeState, localDay(job.uploadedAt ?? job.stateChangedAt)) };
}

/**
 * Writes the note beside a filed file (`.error.txt`, `.warnings.txt`). The file is filed already: a note that cannot be
 * written (a full disk, a name the volume refuses) is said and left out, it never keeps the file from being filed.
 */
async function writeNotes(core: QueueCore, job: Job, target: string, withErrorFile: boolean, withWarnings: boolean): Promise<{ warningsPath?: string }> {
  const note = withErrorFile ? 'error' : withWarnings ? 'warnings' : undefined;
  if (!note) return {};
  try {
    if (note === 'error') {
      await writeErrorFile(target, errorFileText(job, core.now()));
      return {};
    }
    return { warningsPath: await writeWarningsFile(target, warningsFileText(job, core.now())) };
  } catch (error) {
    const path = note === 'error' ? errorNotePath(target) : warningsNotePath(target);
    const message = `${printableName(job.name)}: the note ${printableName(path)} could not be written: ${describeError(error)}; `
      + `the file is filed as ${printableName(target)}, and ${note === 'error' ? 'why it was refused' : 'its row warnings'} can be seen in the upload list`;
    core.logger.warn(message);
    core.emit('error', new Error(message, { cause: error }));
    return {};
  }
}

/**
 * Starts the watch for rows written after filing (filed-watch.ts): on the held original when the file was copied onto
 * another drive, else on the filed file of an uploaded job. Its modification and status-change times as filed are the
 * version's (the move itself changes the latter): times the same bytes were rewritten with (seen as the same version by
 * checksum) are not taken for a change.
 */
async function watchAfterFiling(core: QueueCore, job: Job, target: string, holdAt: string): Promise<JobPatch> {
  const held = await lstat(holdAt).catch(() => undefined);
  // A filed file itself is watched only once uploaded: a refused file is there for the clerk to fix (docs/ui.md: fix
  // it in the rejected folder, then put it back), and a duplicate's content was at the service already, so a change
  // to either is no news. A held original is watched whatever the outcome: it is deleted only once it stayed unchanged.
  const info = held ?? (job.state === 'uploaded' ? await lstat(target).catch(() => undefined) : undefined);
  if (!info?.isFile()) return { heldPath: null, watchUntil: null };
  return {
    heldPath: held ? holdAt : null,
    watchUntil: watchEndFromNow(core, job.id),
    ...(info.size === job.size ? { mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs } : {}),
  };
}

/** What became of a finished file, for the words said when it cannot be filed. */
const OUTCOME_WORDS: Record<OutcomeState, string> = {
  uploaded: 'was uploaded and the service has it',
  duplicate: 'is a duplicate: the service had it already',
  rejected: 'was refused (its reason is in the upload list)',
};

/**
 * Why a finished file waits unfiled while a folder cannot be reached (a network share that dropped): the outcome
 * stands (journaled already), and the file waits where it was claimed until the folder is back, in this run (the
 * queue's backoff tries again) or at the next start (the job is still unfinished, so the claim folder's file is its
 * own, never taken up as a new file).
 */
function unreachableWords(job: Job, folder: string): string {
  const into = job.state === 'uploaded' ? 'uploaded/' : job.state === 'duplicate' ? 'duplicates/' : 'rejected/';
  return `the folder ${printableName(folder)} cannot be reached now (a network share that is disconnected, or a folder `
    + `renamed, removed or closed to this user); it is filed in ${into} once the folder can be reached again`;
}

/** What was last said of each job that could not be filed, per queue: a reason is said once, not at every try. */
const saidNotFiled = new WeakMap<QueueCore, Map<number, string>>();

/** Archives one finished job. Throws on file-system failures (the caller retries later). */
export async function archiveJob(core: QueueCore, start: Job): Promise<void> {
  let job = start;
  const outcome = job.state as OutcomeState;
  const { dir } = archiveDirOf(core, job);
  const withErrorFile = outcome === 'rejected';
  const withWarnings = outcome === 'uploaded' && job.warningCount > 0;
  for (let tries = 0; tries < 20; tries += 1) {
    // A target journaled before a crash may already hold the file (moved before the crash): completeMove knows.
    if (!job.archiveTarget) {
      const version = await versionAtPath(job);
      if (version === 'changed') return requeueNewVersion(core, job);
      job = core.write(job.id, { archiveTarget: await freeTarget(dir, job.name, withErrorFile || withWarnings) });
    }
    const target = job.archiveTarget as string;
    const holdAt = holdPathOf(job);
    const result = await completeMove(job.path, target, job.identity, holdAt);
    if (result === 'changed') {
      job = core.write(job.id, { archiveTarget: null });
      return requeueNewVersion(core, job);
    }
    if (result === 'taken') {
      // Someone else's file took the name after we chose it (or a crash left it unclear): choose again.
      job = core.write(job.id, { archiveTarget: null });
      continue;
    }
    if (result === 'gone') {
      core.logger.warn(`${printableName(job.name)}: the file was no longer there to be moved to ${outcome === 'duplicate' ? 'duplicates' : outcome}/`);
      job = core.write(job.id, { archivedAt: core.now(), archiveTarget: null, nextAttemptAt: null });
    } else {
      const notes = await writeNotes(core, job, target, withErrorFile, withWarnings);
      job = core.write(job.id, { archivedPath: target, archivedAt: core.now(), nextAttemptAt: null, ...notes, ...(await watchAfterFiling(core, job, target, holdAt)) });
      if (saidNotFiled.get(core)?.delete(job.id)) core.logger.info(`${printableName(job.name)}: filed as ${printableName(target)} at last`);
    }
    core.emit('result', job);
    return;
  }
  throw new Error(`${printableName(job.name)}: no free name found in ${printableText(dir)}`);
}

/**
 * The first file (not a folder) on the way from `root` to `dir`: a file of the user's named `rejected` or `uploaded`,
 * where the archive folder of that name is to be made.
 */
async function fileInTheWay(root: string, dir: string): Promise<string | undefined> {
  const steps = relative(root, dir).split(sep).filter(Boolean);
  let at = root;
  for (const step of steps) {
    at = join(at, step);
    const info = await lstat(at).catch(() => undefined);
    if (!info) return undefined;
    if (!info.isDirectory()) return at;
  }
  return undefined;
}

/**
 * A folder on the way to the archive folder that this account may not enter or write in, said with the account it
 * belongs to: clerks with accounts of their own that share a folder file into the same `uploaded/`, `rejected/`,
 * `duplicates/`; one made by another clerk's uploader of an older version (owner-only) or in a folder not shared with
 * the group refuses the others.
 */
function archiveFolderRefused(root: string, refused: string): string {
  const owner = ownerOf(refused);
  const me = accountName();
  if (owner === undefined || owner === me) {
    return `${printableName(refused)} cannot be written (a read-only disk or share, or this user may not change it); make it writable for this user`;
  }
  return `this user${me ? ` (${me})` : ''} may not file into the folder ${printableName(refused)}, which belongs to ${owner}: the uploaders `
    + `of several accounts that share ${printableName(root)} file into the same folders there. Have ${owner} or an administrator `
    + 'give the group of those accounts write access to that folder and the folders in it (chgrp and chmod g+rwx on each), '
    + 'as an uploader of this version makes them in a folder shared with its group; or give the uploaders one account, '
    + 'or an archive.dir each';
}

/**
 * Why a file could not be filed away, in words for the clerk when the cause is one they can mend: a file in the way
 * of the archive folder, a full disk, a folder that cannot be written, named as the folder that refused (the archive
 * root, or a folder in it another account made). Node's recursive mkdir says ENOENT for a folder it may not make on a
 * read-only disk, so that is told by asking whether the archive's root may be written.
 */
export async function whyNotFiled(root: string, dir: string, error: unknown): Promise<string> {
  const code = errorCode(error);
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    const blocking = await fileInTheWay(root, dir);
    if (blocking) {
      return `a file named "${printableName(basename(blocking))}" in ${printableName(dirname(blocking))} is where the folder of that name must be; move or rename that file`;
    }
  }
  if (code === 'ENOSPC') return `the disk that holds ${printableName(dir)} is full; free some space on it`;
  if (!['ENOENT', 'EACCES', 'EPERM', 'EROFS'].includes(code ?? '')) return describeError(error);
  // EACCES and EPERM may also be a lock on the file itself (Windows): only a folder that is not writable is said so.
  const refused = code === 'EROFS' ? undefined : refusingFolderOf(error, [dir]);
  if (refused !== undefined && resolve(refused) !== resolve(root)) return archiveFolderRefused(root, refused);
  const unwritable = code === 'EROFS' || refused !== undefined || (await access(root, constants.W_OK).then(() => false, () => true));
  if (unwritable) {
    return `${printableName(root)} cannot be written (a read-only disk or share, or this user may not change it); make it writable for this user`;
  }
  return describeError(error);
}

/**
 * A file that reached its outcome (uploaded, refused, a duplicate) and could not be filed away (moved to its archive
 * folder): `reason` says why, in words. Emitted as the queue's error; the job stays unfiled, tried again later.
 */
export class NotFiledError extends Error {
  override readonly name = 'NotFiledError';
  constructor(readonly jobId: number, readonly reason: string, message: string, cause: unknown) {
    super(message, { cause });
  }
}

/**
 * What a job left unfinished at the end of a run is, for its summary line: the outcome and why it could not be
 * filed away (`notFiled`, the reason of its last NotFiledError) when it has one; else its last error, or its state.
 * An uploaded file that is not filed is not a failed upload: the service has it.
 */
export function unfinishedWords(job: Job, notFiled?: string): string {
  if (!isOutcome(job.state)) return job.lastError ?? job.state;
  const notMoved = `it could not be moved to its archive folder${notFiled !== undefined ? `: ${notFiled}` : ''}`;
  if (job.state === 'rejected') return `${job.lastError ?? 'refused'}; ${notMoved}`;
  return `${job.state === 'uploaded' ? 'uploaded (the service has it)' : 'a duplicate (the service had it already)'}, but ${notMoved}`;
}

/**
 * An archive failure (a locked file, a read-only folder, a folder that cannot be reached): retried with backoff; the
 * outcome itself stands. Said once for each reason (the log has it at debug level at the later tries): a folder
 * another account made stays closed until someone opens it, and a warning at every try says nothing new. A folder
 * that cannot be reached (a share that dropped) is said with what became of the file and that it is filed once the
 * folder is back, not as a failed move: the clerk has nothing to mend.
 */
export async function archiveFailed(core: QueueCore, job: Job, error: unknown): Promise<void> {
  const delay = retryDelayMs(job.attempts + 1, core.retry, core.random);
  core.write(job.id, { attempts: job.attempts + 1, nextAttemptAt: core.now() + delay });
  const { root, dir } = archiveDirOf(core, job);
  const unreachable = await unreachableFolderOf(error, dirname(job.claimedFrom ?? job.path), root);
  const why = unreachable !== undefined ? unreachableWords(job, unreachable) : await whyNotFiled(root, dir, failureOf(error));
  const message = unreachable !== undefined
    ? `${printableName(job.name)} ${OUTCOME_WORDS[job.state as OutcomeState]}, but it cannot be filed away for now: ${why}`
      + `${job.state === 'rejected' ? '' : '. Nothing needs to be sent again'}.`
    : `${printableName(job.name)}: moving the file to its archive folder failed: ${why}; trying again later`;
  const said = saidNotFiled.get(core) ?? new Map<number, string>();
  saidNotFiled.set(core, said);
  if (said.get(job.id) === why) {
    core.logger.debug(message);
    return;
  }
  said.set(job.id, why);
  core.logger.warn(message);
  if (unreachable !== undefined) core.logger.debug(`${printableName(job.name)}: ${describeError(error)}${error instanceof Error && error.cause ? `: ${describeError(error.cause)}` : ''}`);
  core.emit('error', new NotFiledError(job.id, why, message, error));
}
