/** SQLite's result codes as the app tells them apart (libsql gives them as numbers, or only in a failed open's words). */

// SQLite's primary result codes (the low byte of an extended code).
export const SQLITE_BUSY = 5;
export const SQLITE_READONLY = 8;
export const SQLITE_IOERR = 10;
export const SQLITE_CORRUPT = 11;
export const SQLITE_FULL = 13;
export const SQLITE_CANTOPEN = 14;
export const SQLITE_NOTADB = 26;

/** SQLite's primary result code of a libsql error; libsql reports a failed open only in its message (`...: 14`). */
export function sqliteCode(error: unknown): number | undefined {
  const raw = (error as { rawCode?: unknown } | undefined)?.rawCode;
  if (typeof raw === 'number') return raw & 0xff;
  const opened = error instanceof Error ? /^ConnectionFailed\(.*: (\d+)"?\)$/s.exec(error.message) : null;
  return opened ? Number(opened[1]) & 0xff : undefined;
}

/** The disk under a file, or under a SQLite database, is full (or the user's quota is used up). */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || sqliteCode(error) === SQLITE_FULL;
}
