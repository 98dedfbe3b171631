/**
 * Why the upload journal cannot be opened, in the clerk's words: SQLite's own ("file is not a database", "Unable to
 * open connection ...: 14") name neither the file nor what to do, and the uploader cannot start without it.
 */
import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describeError, errorCode } from '../../lib/fs-errors';
import { printableText } from '../../lib/printable-name';
import { SQLITE_BUSY, SQLITE_CANTOPEN, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_IOERR, SQLITE_NOTADB, SQLITE_READONLY, sqliteCode } from '../../lib/sqlite-codes';

/**
 * The journal cannot be used: damaged, its data folder cannot be written, its disk is full, or (while open) the file
 * was removed, emptied or replaced under the uploader. Nothing was changed on disk.
 */
export class JournalUnusableError extends Error {
  constructor(
    readonly path: string, readonly reason: 'damaged' | 'not-writable' | 'disk-full' | 'lost' | 'other', message: string, options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'JournalUnusableError';
  }
}

/**
 * Damage the journal's own checks found when it was opened (an empty file, what SQLite's quick_check reports), where
 * SQLite itself said nothing yet: a page past the first one overwritten reads as malformed only when it is reached.
 */
export class JournalDamageFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalDamageFound';
  }
}

/** The journal and the files SQLite keeps beside it that exist now: they belong together and are moved together. */
function journalFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`].filter((each) => existsSync(each));
}

/** Why this process cannot create and change files in `folder`, in words; undefined when it can. */
function writeProblem(folder: string): string | undefined {
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
    return undefined;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EROFS') return 'the disk it is on is read-only';
    if (code === 'ENOENT') return 'it is not there';
    return 'this user has no permission to write in it';
  }
}

/**
 * Free bytes on the disk of `folder` for this user; undefined when that cannot be told. A full disk makes SQLite say
 * "disk I/O error" when the journal is opened (its -shm or -wal file cannot be made), which reads as failing hardware.
 */
function freeBytes(folder: string): number | undefined {
  try {
    const fs = statfsSync(folder);
    return fs.bavail * fs.bsize;
  } catch {
    return undefined;
  }
}

/** Below this, opening the journal (its -wal and -shm files) fails for want of space. */
const TOO_LITTLE_SPACE = 1024 * 1024;

/** What to do about the damaged journal at `path`: the renames that move it aside, then start again. */
function damagedWords(path: string, today: Date): string[] {
  const day = today.toISOString().slice(0, 10);
  const renames = journalFiles(path).map((each) => `${basename(each)} -> ${basename(each)}.damaged-${day}`);
  return [
    'It holds the upload history and the state of the files in progress. The uploader leaves it as it is: to start again,',
    `stop every uploader that uses the data folder ${printableText(dirname(path))}, move the damaged journal aside by renaming, in that folder, ${renames.join(', ')},`,
    'and start the uploader again: it makes a new, empty journal. Nothing in the watched folder is lost: files still claimed in its',
    '.processing/ folder by this uploader are taken up and sent again (one the service already holds is filed under duplicates/),',
    'and the other files are sent as they are found. Only the upload history starts empty; keep the damaged file for your IT support.',
  ];
}

const isDamage = (error: unknown): boolean => {
  const sqlite = sqliteCode(error);
  return error instanceof JournalDamageFound || sqlite === SQLITE_NOTADB || sqlite === SQLITE_CORRUPT;
};

/** The error `openJournal` throws for `error`, raised while opening the journal at `path`. */
export function journalOpenError(path: string, error: unknown, today = new Date()): JournalUnusableError {
  const folder = printableText(dirname(path));
  const shown = printableText(path);
  const sqlite = sqliteCode(error);
  const fsCode = errorCode(error);
  if (isDamage(error)) {
    return new JournalUnusableError(path, 'damaged', [
      `the upload journal ${shown} is damaged (${describeError(error)}), so the uploader cannot start.`,
      ...damagedWords(path, today),
    ].join('\n'), { cause: error });
  }
  const free = freeBytes(dirname(path));
  const mayBeFull = sqlite === SQLITE_IOERR || sqlite === SQLITE_FULL || fsCode === 'ENOSPC' || fsCode === 'EDQUOT';
  if (mayBeFull && free !== undefined && free < TOO_LITTLE_SPACE) {
    return new JournalUnusableError(path, 'disk-full', `the upload journal ${shown} could not be opened: the disk that holds the data folder `
      + `${folder} is full (${Math.floor(free / 1024)} KB free); free some space on it, then start the uploader again. Nothing was changed.`,
    { cause: error });
  }
  const problem = writeProblem(dirname(path));
  const denied = fsCode === 'EACCES' || fsCode === 'EPERM' || fsCode === 'EROFS' || sqlite === SQLITE_READONLY
    || (sqlite === SQLITE_CANTOPEN && problem !== undefined);
  if (denied) {
    // libsql's words for a failed open ("ConnectionFailed(...: 14)") say nothing to a clerk: the folder's problem does.
    const why = problem ?? (sqlite === SQLITE_CANTOPEN ? 'the journal file cannot be opened' : describeError(error));
    return new JournalUnusableError(path, 'not-writable', [
      `the upload journal ${shown} cannot be opened for writing: the data folder ${folder} cannot be written (${why}).`,
      'The uploader needs to create and change files there. Give this user permission to write in that folder (or make the disk',
      'writable again), or choose another data folder (PAYROLL_DATA_DIR), then start the uploader again.',
    ].join('\n'), { cause: error });
  }
  return new JournalUnusableError(path, 'other', `the upload journal ${shown} could not be opened (${describeError(error)}); `
    + 'nothing was changed. Check that the data folder is there and can be written, then start the uploader again.', { cause: error });
}

/** How the open journal's file was lost while the uploader ran (journal-file.ts). */
export type JournalLoss = 'removed' | 'emptied' | 'replaced';

/**
 * The error every change to a journal whose file was lost while open throws: the changes would go to a file nobody
 * reads again (removed), or over another one (replaced), so none is made.
 */
export function journalLostError(path: string, loss: JournalLoss | 'folder-removed'): JournalUnusableError {
  const shown = printableText(path);
  if (loss === 'folder-removed') {
    return new JournalUnusableError(path, 'lost', `the data folder ${printableText(dirname(path))} of the upload journal ${shown} was removed `
      + 'while the uploader ran; nothing more is written there. Restore the folder, or start the uploader again.');
  }
  const what = loss === 'removed' ? `was deleted`
    : loss === 'emptied' ? 'was emptied (it is 0 bytes now)' : 'was replaced by another file of that name';
  return new JournalUnusableError(path, 'lost', [
    `the upload journal ${shown} ${what} while the uploader ran; uploads stopped, and nothing more is written to it.`,
    'It held the upload history and the state of the files in progress. If that was a mistake, stop the uploader and put the journal',
    'back as it was (from the recycle bin or a backup) before starting it again. Otherwise start the uploader again: it makes a new,',
    'empty journal; files still claimed in the watched folder\'s .processing/ folder are taken up and sent again (one the service',
    'already holds is filed under duplicates/), and only the upload history starts empty.',
  ].join('\n'));
}

/**
 * Why a change to the open journal at `path` failed, in words that name the data folder and what to do: SQLite's own
 * ("database or disk is full") name neither. The caller says what waits meanwhile.
 */
export function journalWriteProblem(path: string, error: unknown, today = new Date()): string {
  const folder = printableText(dirname(path));
  const fsCode = errorCode(error);
  // Already in words (the file was lost while open).
  if (error instanceof JournalUnusableError) return error.message;
  if (isDamage(error)) {
    return [`the upload journal ${printableText(path)} is damaged (${describeError(error)})`, ...damagedWords(path, today)].join('\n');
  }
  if (sqliteCode(error) === SQLITE_BUSY) {
    return `another program keeps the upload journal ${printableText(path)} locked (${describeError(error)}): a database browser, `
      + 'a backup tool, or a payroll-uploader send; close it or let it finish';
  }
  if (sqliteCode(error) === SQLITE_FULL || fsCode === 'ENOSPC') {
    return `the disk that holds the data folder ${folder} is full (${describeError(error)}); free some space on it`;
  }
  const problem = writeProblem(dirname(path));
  if (problem) return `the data folder ${folder} cannot be written (${problem})`;
  return `the upload journal ${printableText(path)} could not be written (${describeError(error)})`;
}
