/**
 * Why the local server's database cannot be used, in words that name the file and what to do: SQLite's own ("file is
 * not a database") say neither, and an emptied file would otherwise be taken for a new database, so the server would
 * start as a new one (every file sent to it before taken as new, and imported again).
 */
import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describeError } from '../../lib/fs-errors';
import { printableText } from '../../lib/printable-name';
import { isDiskFull, SQLITE_CORRUPT, SQLITE_NOTADB, sqliteCode } from '../../lib/sqlite-codes';

/** The server's database is damaged or was emptied: the server does not start on it, and leaves it as it is. */
export class DamagedDatabaseError extends Error {
  constructor(readonly path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DamagedDatabaseError';
  }
}

/** The database and the files SQLite keeps beside it that exist now: they belong together and are moved together. */
function databaseFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`].filter((each) => existsSync(each));
}

/** The error for a database at `path` that is damaged; `why` says how (SQLite's words, or "it is empty"). */
export function damagedDatabase(path: string, why: string, today = new Date(), cause?: unknown): DamagedDatabaseError {
  const folder = printableText(dirname(path));
  const day = today.toISOString().slice(0, 10);
  const renames = databaseFiles(path).map((each) => `${printableText(basename(each))} -> ${printableText(basename(each))}.damaged-${day}`);
  return new DamagedDatabaseError(path, [
    `the local server's database ${printableText(path)} is damaged (${why}), so the server cannot start.`,
    'It holds everything the server keeps: its clients, its imports and the record of the files it was sent. The server leaves it as it',
    'is. Restore it from a backup if there is one. Or, to start afresh: stop every program that uses the data folder',
    `${folder} (payroll-uploader server, or the desktop app or a \`watch --env local\` for their built-in server),`,
    `move the damaged database aside by renaming, in that folder, ${renames.join(', ')},`,
    'and start the server again: it makes a new, empty database. What this server kept is then lost: a file sent to it before is',
    'taken as new and imported again, and the clients and webhooks it made itself must be set up again. Keep the damaged file for',
    'your IT support.',
  ].join('\n'), cause === undefined ? undefined : { cause });
}

/** The disk under the server's data folder is full: a database could not be made or opened there. */
export class DatabaseDiskFullError extends Error {
  constructor(readonly path: string, making: boolean, options?: ErrorOptions) {
    super(`the local server's database ${printableText(path)} could not be ${making ? 'made' : 'opened'}: the disk that holds `
      + `${printableText(dirname(path))} is full, so the server cannot start. Free some space on that disk and start the server `
      + `again${making ? '' : '; what the server kept is unchanged'}.`, options);
    this.name = 'DatabaseDiskFullError';
  }
}

/**
 * `error`, raised while making (`making`) or opening the database at `path`, said in words when it says the file is
 * damaged or the disk is full.
 */
export function databaseOpenError(path: string, error: unknown, making = false): unknown {
  if (isDiskFull(error)) return new DatabaseDiskFullError(path, making, { cause: error });
  const code = sqliteCode(error);
  if (code !== SQLITE_NOTADB && code !== SQLITE_CORRUPT) return error;
  return damagedDatabase(path, describeError(error), new Date(), error);
}
