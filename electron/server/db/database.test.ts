import Database from 'libsql';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/local-server';
import { DB_FILE, openDatabase } from './database';

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
