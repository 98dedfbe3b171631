/**
 * Why the upload journal cannot be opened, in the clerk's words: SQLite's own ("file is not a database", "Unable to
 * open connection ...: 14") name neither the file nor what to do, and the uploader cannot start without it.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describeError, errorCode } from '../../lib/fs-errors';
import { printableText } from '../../lib/printable-name';

/** The journal cannot be used: damaged, or its data folder cannot be written. Nothing was changed on disk. */
export class JournalUnusableError extends Error {
  constructor(readonly path: string, readonly reason: 'damaged' | 'not-writable' | 'other', message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'JournalUnusableError';
  }
}

// SQLite's primary result codes (the low byte of an extended code).
const SQLITE_READONLY = 8;
const SQLITE_CORRUPT = 11;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

/** SQLite's primary result code of a libsql error; libsql reports a failed open only in its message (`...: 14`). */
function sqliteCode(error: unknown): number | undefined {
  const raw = (error as { rawCode?: unknown } | undefined)?.rawCode;
  if (typeof raw === 'number') return raw & 0xff;
  const opened = error instanceof Error ? /^ConnectionFailed\(.*: (\d+)"?\)$/s.exec(error.message) : null;
  return opened ? Number(opened[1]) & 0xff : undefined;
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

/** The error `openJournal` throws for `error`, raised while opening the journal at `path`. */
export function journalOpenError(path: string, error: unknown, today = new Date()): JournalUnusableError {
  const folder = printableText(dirname(path));
  const shown = printableText(path);
  const sqlite = sqliteCode(error);
  const fsCode = errorCode(error);
  if (sqlite === SQLITE_NOTADB || sqlite === SQLITE_CORRUPT) {
    const day = today.toISOString().slice(0, 10);
    const renames = journalFiles(path).map((each) => `${basename(each)} -> ${basename(each)}.damaged-${day}`);
    return new JournalUnusableError(path, 'damaged', [
      `the upload journal ${shown} is damaged (${describeError(error)}), so the uploader cannot start.`,
      'It holds the upload history and the state of the files in progress. The uploader leaves it as it is: to start again,',
      `stop every uploader that uses the data folder ${folder}, move the damaged journal aside by renaming, in that folder, ${renames.join(', ')},`,
      'and start the uploader again: it makes a new, empty journal. Nothing in the watched folder is lost: files still claimed in its',
      '.processing/ folder by this uploader are taken up and sent again (one the service already holds is filed under duplicates/),',
      'and the other files are sent as they are found. Only the upload history starts empty; keep the damaged file for your IT support.',
    ].join('\n'), { cause: error });
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

const SQLITE_FULL = 13;

/**
 * Why a change to the open journal at `path` failed, in words that name the data folder and what to do: SQLite's own
 * ("database or disk is full") name neither. The caller says what waits meanwhile.
 */
export function journalWriteProblem(path: string, error: unknown): string {
  const folder = printableText(dirname(path));
  const fsCode = errorCode(error);
  if (sqliteCode(error) === SQLITE_FULL || fsCode === 'ENOSPC') {
    return `the disk that holds the data folder ${folder} is full (${describeError(error)}); free some space on it`;
  }
  const problem = writeProblem(dirname(path));
  if (problem) return `the data folder ${folder} cannot be written (${problem})`;
  return `the upload journal ${printableText(path)} could not be written (${describeError(error)})`;
}
