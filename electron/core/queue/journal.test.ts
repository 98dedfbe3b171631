import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/local-server';
import { openJournal, type Journal } from './journal';

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
