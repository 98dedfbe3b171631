/**
 * One transaction on a libsql connection, begun and ended through `exec`. Two lessons are kept here, for the uploader's
 * journal and the local server's database alike:
 * - BEGIN, COMMIT and ROLLBACK run through exec, which ends its statement: a prepared statement left unfinished by a
 *   "database is locked" failure keeps SQLite from committing anything more on the connection.
 * - After an error that SQLite answers by rolling the transaction back itself (a full disk, an I/O error) there is no
 *   transaction left, and a ROLLBACK then fails ("cannot rollback - no transaction is active"): its error would replace
 *   the one that says what happened. Only what is still open is rolled back, and the error that ended it is thrown.
 */
import type Database from 'libsql';

type Connection = InstanceType<typeof Database>;

/** `''` is SQLite's default (deferred); `IMMEDIATE` takes the write lock at BEGIN, waiting as busy_timeout says. */
export type TransactionMode = '' | 'DEFERRED' | 'IMMEDIATE' | 'EXCLUSIVE';

export function inTransaction<T>(db: Connection, mode: TransactionMode, fn: () => T): T {
  db.exec(mode ? `BEGIN ${mode}` : 'BEGIN');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    // COMMIT may fail and leave the transaction open (a full disk): nothing of it is kept.
    try {
      if (db.inTransaction) db.exec('ROLLBACK');
    } catch {
      // SQLite may have rolled it back itself; the error that ended the transaction is the one to tell.
    }
    throw error;
  }
}
