/** The local server's one SQLite file: schema and opening. A restart loses nothing; a damaged file is refused in words. */
import Database from 'libsql';
import { renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, makePrivateFile } from '../../lib/private-files';
import { inTransaction, type TransactionMode } from '../../lib/sqlite-transaction';
import { damagedDatabase, databaseOpenError } from './database-errors';

export type Db = InstanceType<typeof Database>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clients (
  id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, salt TEXT NOT NULL, scopes TEXT NOT NULL,
  webhook_url TEXT, webhook_secret TEXT, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS imports (
  id TEXT PRIMARY KEY, client_id TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, file_name TEXT,
  status TEXT NOT NULL, records INTEGER, accepted INTEGER NOT NULL DEFAULT 0, rejected INTEGER NOT NULL DEFAULT 0,
  errors TEXT NOT NULL DEFAULT '[]', reason TEXT, payload TEXT, received_at TEXT NOT NULL, processed_at TEXT, seq INTEGER);
CREATE INDEX IF NOT EXISTS imports_status ON imports(status);
CREATE INDEX IF NOT EXISTS imports_seq ON imports(seq);
CREATE TABLE IF NOT EXISTS census_registrations (
  client_id TEXT NOT NULL, employee_registration TEXT NOT NULL, PRIMARY KEY (client_id, employee_registration)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files (
  id TEXT PRIMARY KEY, client_id TEXT NOT NULL, import_id TEXT NOT NULL, file_name TEXT NOT NULL, file_type TEXT NOT NULL,
  checksum TEXT NOT NULL, reference_date TEXT NOT NULL, status TEXT NOT NULL, expires_at INTEGER NOT NULL,
  created_at TEXT NOT NULL, uploaded_at TEXT, size INTEGER, path TEXT);
CREATE INDEX IF NOT EXISTS files_checksum ON files(client_id, checksum);
CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY, client_id TEXT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, created_at TEXT NOT NULL,
  state TEXT NOT NULL, retries_done INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER);
CREATE INDEX IF NOT EXISTS events_state ON events(state);
CREATE TABLE IF NOT EXISTS deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL, client_id TEXT NOT NULL, type INTEGER NOT NULL,
  status INTEGER NOT NULL, http_status INTEGER, duration_ms INTEGER NOT NULL DEFAULT 0, attempt_count INTEGER NOT NULL,
  url TEXT NOT NULL, created_at TEXT NOT NULL, failure TEXT);
CREATE INDEX IF NOT EXISTS deliveries_client ON deliveries(client_id, id);
CREATE TABLE IF NOT EXISTS request_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, status INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL, trace_id TEXT NOT NULL, client_id TEXT, request_body TEXT, response_body TEXT);
`;

/** Columns added since the first release: a data folder made before gets them when it is opened. */
const ADDED_COLUMNS: { table: string; column: string; type: string }[] = [
  { table: 'deliveries', column: 'failure', type: 'TEXT' },
];

function addMissingColumns(db: Db): void {
  for (const { table, column, type } of ADDED_COLUMNS) {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
    if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}

/**
 * Imports recorded before they were numbered in arrival order (seq, see imports-repo.ts) get their numbers: in the
 * order their data arrived, a file's at its upload, which then becomes its received_at as it is for new files
 * (it was the time of its grant). Their numbers come after any already given.
 */
function numberImportsInArrivalOrder(db: Db): void {
  if (!db.prepare('SELECT 1 FROM imports WHERE seq IS NULL LIMIT 1').get()) return;
  db.transaction(() => {
    db.exec(`UPDATE imports SET received_at = files.uploaded_at FROM files
      WHERE files.import_id = imports.id AND files.status = 'UPLOADED' AND files.uploaded_at IS NOT NULL AND imports.seq IS NULL`);
    const { last } = db.prepare('SELECT COALESCE(MAX(seq), 0) AS last FROM imports').get() as { last: number };
    db.prepare(`UPDATE imports SET seq = ? + arrival.n
      FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY received_at, rowid) AS n FROM imports WHERE seq IS NULL) AS arrival
      WHERE imports.id = arrival.id`).run(last);
  })();
}

export const DB_FILE = 'payroll-local.sqlite';

const OPEN_PRAGMAS = 'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;';

/**
 * libsql's db.transaction() ends a failed transaction with ROLLBACK, whose own failure (no transaction left after a
 * full disk or an I/O error) replaced the error that says what happened: a full disk became an unexpected failure. The
 * server's transactions go through inTransaction instead, as the uploader's journal does.
 */
function keepFirstErrorOfTransactions(db: Db): void {
  const inMode = (mode: TransactionMode, fn: (...args: unknown[]) => unknown) => (...args: unknown[]) => inTransaction(db, mode, () => fn(...args));
  const transaction = (fn: (...args: unknown[]) => unknown) => Object.assign(inMode('', fn), {
    default: inMode('', fn), deferred: inMode('DEFERRED', fn), immediate: inMode('IMMEDIATE', fn), exclusive: inMode('EXCLUSIVE', fn),
    database: db,
  });
  db.transaction = transaction as unknown as Db['transaction'];
}

/**
 * Makes a new database at `file` whole or not at all: built beside it under another name, then renamed into place. So
 * a database file, once there, is never empty (a start cut off while making it leaves only the other name, made
 * again at the next start), and an empty one is damage: see openDatabase.
 */
function createDatabase(file: string): void {
  const making = `${file}.new`;
  for (const each of [making, `${making}-journal`]) rmSync(each, { force: true });
  makePrivateFile(making);
  const db = new Database(making);
  try {
    // In rollback-journal mode, in one transaction: once closed, the file alone holds it all (no -wal beside it).
    db.exec(`BEGIN; ${SCHEMA} COMMIT;`);
  } finally {
    db.close();
  }
  renameSync(making, file);
}

/**
 * Opens (creating if needed) the database in the data folder, in WAL mode; the folder and file are owner-only. A
 * folder with no database file gets a new one. A database that is damaged, or empty (a disk or copying problem
 * emptied it: a database is never empty once made), throws DamagedDatabaseError, naming the file and what to do,
 * and is left as it is: starting afresh on it would lose what the server kept without a word, and a file sent
 * before would be imported again.
 */
export function openDatabase(dataDir: string): Db {
  makePrivateDir(dataDir);
  const file = join(dataDir, DB_FILE);
  const found = statSync(file, { throwIfNoEntry: false });
  if (!found) {
    try {
      createDatabase(file);
    } catch (error) {
      throw databaseOpenError(file, error, true);
    }
  }
  else if (found.isFile() && found.size === 0) throw damagedDatabase(file, 'it is empty: 0 bytes');
  makePrivateFile(file);
  let db: Db | undefined;
  try {
    db = new Database(file);
    keepFirstErrorOfTransactions(db);
    db.exec(OPEN_PRAGMAS);
    db.exec(SCHEMA);
    addMissingColumns(db);
    numberImportsInArrivalOrder(db);
    return db;
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Closing a connection to a damaged file may fail too; the error that matters is the first one.
    }
    throw databaseOpenError(file, error);
  }
}

const prepare = (db: Db, sql: string) => db.prepare(sql);
type Statement = ReturnType<typeof prepare>;
const statements = new WeakMap<Db, Map<string, Statement>>();

/** A prepared statement, prepared once per database (preparing costs about as much as a small query). */
export function statement(db: Db, sql: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map<string, Statement>()));
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, (stmt = prepare(db, sql)));
  return stmt;
}

/** A value kept in meta, made once by `create` (signing keys). */
export function metaValue(db: Db, key: string, create: () => string): string {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  if (row) return row.value;
  const value = create();
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(key, value);
  return value;
}
