import Database from 'libsql';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/local-server';
import { toBatchView } from '../bridge/views';
import { JOURNAL_FILE, openJournal, type Journal } from './journal';

let dir: string;
let journal: Journal;
beforeEach(async () => {
  dir = await tempDir('queue-journal-');
  journal = openJournal(dir);
});
afterEach(async () => {
  journal.close();
  await rm(dir, { recursive: true, force: true });
});

const file = (name: string) => ({ path: `/watched/${name}`, name, size: 10, mtimeMs: 1 });

/** What SQLite holds, read by a second connection: the memory copy must never be ahead of it. */
function onDisk(): { id: number; state: string }[] {
  const other = openJournal(dir);
  try {
    return other.liveJobs().map(({ id, state }) => ({ id, state }));
  } finally {
    other.close();
  }
}

describe('journal: the unfinished jobs in memory', () => {
  it('follows every write, oldest first, and forgets a job once it is archived', () => {
    const a = journal.insertJob(file('a.csv'), 1, '2026-01-01');
    const b = journal.insertJob(file('b.csv'), 2, '2026-01-01');
    journal.update(a.id, { state: 'granting', md5: 'x' }, 3);
    expect(journal.liveJobs().map((j) => [j.name, j.state])).toEqual([['a.csv', 'granting'], ['b.csv', 'found']]);
    expect(journal.job(a.id)).toMatchObject({ state: 'granting', md5: 'x', stateChangedAt: 3 });

    journal.update(a.id, { state: 'uploaded' }, 4);
    journal.update(a.id, { archivedAt: 5, archivedPath: '/watched/uploaded/a.csv' }, 5);
    expect(journal.liveJobs().map((j) => j.name)).toEqual(['b.csv']);
    // Archived jobs are still there to be looked up, from SQLite.
    expect(journal.job(a.id)).toMatchObject({ state: 'uploaded', archivedAt: 5 });
    expect(onDisk()).toEqual([{ id: b.id, state: 'found' }]);
  });

  it('commits a transaction as a whole, and a failed one leaves neither SQLite nor memory changed', () => {
    const a = journal.insertJob(file('a.csv'), 1, '2026-01-01');
    const b = journal.insertJob(file('b.csv'), 1, '2026-01-01');
    journal.transaction(() => {
      journal.update(a.id, { state: 'uploading' }, 2);
      journal.update(b.id, { state: 'uploading' }, 2);
    });
    expect(onDisk().map((j) => j.state)).toEqual(['uploading', 'uploading']);

    expect(() => journal.transaction(() => {
      journal.update(a.id, { state: 'uploaded' }, 3);
      throw new Error('the handshake answer was cut short');
    })).toThrow('cut short');
    expect(journal.liveJobs().map((j) => j.state)).toEqual(['uploading', 'uploading']);
    expect(onDisk().map((j) => j.state)).toEqual(['uploading', 'uploading']);
  });
});

describe('journal: the service of each batch', () => {
  it('keeps the service and client a batch was sent to; a batch of a journal made before has none, and shows none', async () => {
    // A journal of the version before batches kept their service: its batches table as it was then, with one batch.
    const old = await tempDir('queue-journal-old-');
    try {
      const db = new Database(join(old, JOURNAL_FILE));
      db.exec(`CREATE TABLE batches (
        id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, records INTEGER NOT NULL, state TEXT NOT NULL,
        created_at INTEGER NOT NULL, state_changed_at INTEGER NOT NULL, import_id TEXT, received_at TEXT, error TEXT);
        INSERT INTO batches (kind, records, state, created_at, state_changed_at, import_id) VALUES ('census', 2, 'sent', 1, 2, 'imp-1');`);
      db.close();

      const opened = openJournal(old);
      try {
        const sent = opened.insertBatch('receipt', 3, 3, { profile: 'production', baseUrl: 'https://payroll.example.com', clientId: 'beta' });
        expect(sent).toMatchObject({ state: 'sending', profile: 'production', baseUrl: 'https://payroll.example.com', clientId: 'beta' });
        const [newer, older] = opened.batches();
        expect(newer).toMatchObject({ id: sent.id, profile: 'production', baseUrl: 'https://payroll.example.com', clientId: 'beta' });
        expect(older).toEqual({ id: 1, kind: 'census', records: 2, state: 'sent', createdAt: 1, stateChangedAt: 2, importId: 'imp-1' });
        // As the screens see them: the service named for the new batch, nothing for the one whose service is not known.
        expect(toBatchView(newer!).service).toEqual({ profile: 'production', builtIn: false, address: 'https://payroll.example.com', clientId: 'beta' });
        expect(toBatchView(older!)).not.toHaveProperty('service');
      } finally {
        opened.close();
      }
    } finally {
      await rm(old, { recursive: true, force: true });
    }
  });
});

describe('journal: what the service made of each import', () => {
  it('adds the columns to a journal of the version before, and keeps a batch\'s and a file\'s result there', async () => {
    // A journal of the version before results were kept: its tables as they were then, with one sent batch and one file.
    const old = await tempDir('queue-journal-results-');
    try {
      const db = new Database(join(old, JOURNAL_FILE));
      db.exec(`CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, name TEXT NOT NULL, size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL, state TEXT NOT NULL, resume_state TEXT, created_at INTEGER NOT NULL,
        state_changed_at INTEGER NOT NULL, next_attempt_at INTEGER, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT,
        warnings TEXT NOT NULL DEFAULT '[]', warning_count INTEGER NOT NULL DEFAULT 0, md5 TEXT, file_type TEXT,
        reference_date TEXT, found_day TEXT NOT NULL, grant_url TEXT, grant_expires_at INTEGER, grant_issued_at INTEGER,
        put_started_at INTEGER, mismatches INTEGER NOT NULL DEFAULT 0, import_id TEXT, uploaded_at INTEGER,
        archive_target TEXT, archived_path TEXT, archived_at INTEGER, profile TEXT, base_url TEXT, identity TEXT,
        claimed_from TEXT, held_for TEXT, warnings_path TEXT, client_id TEXT, ctime_ms REAL, held_path TEXT, watch_until INTEGER);
        CREATE TABLE batches (
        id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, records INTEGER NOT NULL, state TEXT NOT NULL,
        created_at INTEGER NOT NULL, state_changed_at INTEGER NOT NULL, import_id TEXT, received_at TEXT, error TEXT,
        profile TEXT, base_url TEXT, client_id TEXT);
        INSERT INTO jobs (path, name, size, mtime_ms, state, created_at, state_changed_at, found_day, import_id, archived_at)
          VALUES ('/w/uploaded/r.csv', 'r.csv', 10, 1, 'uploaded', 1, 2, '2026-01-01', 'imp-file', 3);
        INSERT INTO batches (kind, records, state, created_at, state_changed_at, import_id) VALUES ('receipt', 2, 'sent', 1, 2, 'imp-1');`);
      db.close();

      const opened = openJournal(old);
      try {
        // Its rows read as before: no result known.
        expect(opened.batches()[0]).toEqual({ id: 1, kind: 'receipt', records: 2, state: 'sent', createdAt: 1, stateChangedAt: 2, importId: 'imp-1' });
        expect(opened.job(1)).not.toHaveProperty('importResult');

        const refused = { index: 1, field: 'employeeRegistration', message: 'employeeRegistration E-9 is not known from any census import' };
        const result = { status: 'PROCESSED' as const, acceptedRecords: 1, rejectedRecords: 1, errorCount: 1 };
        // Only the batch of that import takes it; its state and the time it changed stay.
        expect(opened.keepBatchImport(1, 'imp-other', result, [refused])).toBeUndefined();
        expect(opened.keepBatchImport(1, 'imp-1', result, [refused])).toEqual({
          id: 1, kind: 'receipt', records: 2, state: 'sent', createdAt: 1, stateChangedAt: 2, importId: 'imp-1', importResult: result, importErrors: [refused],
        });
        opened.update(1, { importResult: result, importErrors: [{ ...refused, index: undefined, line: 3 }] }, 9);
        expect(opened.job(1)).toMatchObject({ state: 'uploaded', stateChangedAt: 2, importResult: result, importErrors: [{ line: 3 }] });
      } finally {
        opened.close();
      }
      // Kept on disk: opened again, it is all there.
      const again = openJournal(old);
      try {
        expect(again.batches()[0]?.importResult).toEqual({ status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 1, errorCount: 1 });
        expect(again.job(1)?.importErrors).toEqual([{ line: 3, field: 'employeeRegistration', message: 'employeeRegistration E-9 is not known from any census import' }]);
      } finally {
        again.close();
      }
    } finally {
      await rm(old, { recursive: true, force: true });
    }
  });
});
