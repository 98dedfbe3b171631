import Database from 'libsql';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/local-server';
import { DB_FILE, openDatabase } from './database';
import { DamagedDatabaseError } from './database-errors';
import { unfinishedImports } from './imports-repo';

const opened: { close(): void }[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) db.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

it('gives a data folder made before the delivery attempts had a failure column that column, keeping its rows', async () => {
  const dir = await tempDir();
  dirs.push(dir);
  const old = new Database(join(dir, DB_FILE));
  old.exec(`CREATE TABLE deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL, client_id TEXT NOT NULL, type INTEGER NOT NULL,
    status INTEGER NOT NULL, http_status INTEGER, duration_ms INTEGER NOT NULL DEFAULT 0, attempt_count INTEGER NOT NULL,
    url TEXT NOT NULL, created_at TEXT NOT NULL)`);
  old.prepare("INSERT INTO deliveries (event_id, client_id, type, status, http_status, attempt_count, url, created_at) VALUES ('e', 'c', 1, 3, 500, 0, 'http://127.0.0.1/h', '2026-01-01T00:00:00Z')").run();
  old.close();

  const db = openDatabase(dir);
  opened.push(db);
  expect(db.prepare('SELECT id, http_status, failure FROM deliveries').all()).toEqual([{ id: 1, http_status: 500, failure: null }]);
  // Opened again, nothing is added twice.
  db.close();
  opened.pop();
  const again = openDatabase(dir);
  opened.push(again);
  expect((again.prepare('PRAGMA table_info(deliveries)').all() as { name: string }[]).filter((c) => c.name === 'failure')).toHaveLength(1);
});

it('numbers the imports of a data folder made before they were numbered in arrival order: a file arrived at its upload', async () => {
  const dir = await tempDir();
  dirs.push(dir);
  const old = openDatabase(dir);
  // As an earlier version left them: a file import's received_at was its grant's time, and no row had a seq.
  const file = old.prepare(`INSERT INTO files (id, client_id, import_id, file_name, file_type, checksum, reference_date, status, expires_at, created_at, uploaded_at)
    VALUES (?, 'c', ?, ?, ?, ?, '2026-01-31T00:00:00Z', 'UPLOADED', 0, ?, ?)`);
  const entry = old.prepare(`INSERT INTO imports (id, client_id, kind, source, file_name, status, received_at, seq) VALUES (?, 'c', ?, ?, ?, ?, ?, NULL)`);
  entry.run('receipts', 'receipt', 'file', 'r.csv', 'QUEUED', '2026-03-01T10:00:00.000Z');
  file.run('f-receipts', 'receipts', 'r.csv', '2', 'a'.repeat(32), '2026-03-01T10:00:00.000Z', '2026-03-01T10:05:00.000Z');
  entry.run('census', 'census', 'file', 'c.csv', 'PROCESSING', '2026-03-01T10:01:00.000Z');
  file.run('f-census', 'census', 'c.csv', '1', 'b'.repeat(32), '2026-03-01T10:01:00.000Z', '2026-03-01T10:02:00.000Z');
  entry.run('batch', 'receipt', 'json', null, 'QUEUED', '2026-03-01T10:03:00.000Z');
  entry.run('waiting', 'census', 'file', 'w.csv', 'AWAITING_UPLOAD', '2026-03-01T10:04:00.000Z');
  old.close();

  const db = openDatabase(dir);
  opened.push(db);
  expect(unfinishedImports(db).map((row) => [row.id, row.received_at])).toEqual([
    ['census', '2026-03-01T10:02:00.000Z'], ['batch', '2026-03-01T10:03:00.000Z'], ['receipts', '2026-03-01T10:05:00.000Z'],
  ]);
  expect(db.prepare('SELECT id FROM imports ORDER BY seq').all()).toEqual([{ id: 'census' }, { id: 'batch' }, { id: 'waiting' }, { id: 'receipts' }]);
});

it('refuses an empty database file as damaged, naming it and what to do, and leaves it as it is: it is never taken for a new one', async () => {
  const dir = await tempDir();
  dirs.push(dir);
  const file = join(dir, DB_FILE);
  await writeFile(file, '');
  expect(() => openDatabase(dir)).toThrow(DamagedDatabaseError);
  expect(() => openDatabase(dir)).toThrow(`the local server's database ${file} is damaged (it is empty: 0 bytes), so the server cannot start.`);
  expect((await readFile(file)).length).toBe(0);
  expect(await readdir(dir)).toEqual([DB_FILE]);
});

it('refuses a database whose header was overwritten as damaged, in words that say which files to rename, and changes nothing', async () => {
  const dir = await tempDir();
  dirs.push(dir);
  openDatabase(dir).close();
  const file = join(dir, DB_FILE);
  const bytes = await readFile(file);
  bytes.fill(0x5a, 0, 100);
  await writeFile(file, bytes);
  await writeFile(`${file}-wal`, '');
  expect(() => openDatabase(dir)).toThrow(/is damaged \(file is not a database\)[^]*renaming, in that folder, payroll-local\.sqlite -> payroll-local\.sqlite\.damaged-\d{4}-\d\d-\d\d, payroll-local\.sqlite-wal -> payroll-local\.sqlite-wal\.damaged-/);
  expect(await readFile(file)).toEqual(bytes);
});

it('makes a new database whole or not at all: what a start cut off while making it left is made again, and never left empty', async () => {
  const dir = await tempDir();
  dirs.push(dir);
  // As a start cut off while making the database leaves it: only the file under its other name, half made.
  await writeFile(join(dir, `${DB_FILE}.new`), 'SQLite format 3\0 cut off');
  const db = openDatabase(dir);
  opened.push(db);
  expect((await readdir(dir)).filter((name) => !name.endsWith('-wal') && !name.endsWith('-shm'))).toEqual([DB_FILE]);
  expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'imports'").get()).toMatchObject({ name: 'imports' });
});
