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
