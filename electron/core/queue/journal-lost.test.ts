/**
 * The journal's file removed, emptied or replaced while it is open: SQLite would go on writing to the deleted file (or
 * over a new one), and the history would be lost without a word. The journal notices, says so to whenJournalLost's
 * listeners (the session stops uploads on it) and refuses every later write in words. Real SQLite files.
 */
import { readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, tempDir } from '../../../test/helpers/local-server';
import { JOURNAL_FILE, openJournal, type Journal } from './journal';
import { whenJournalLost, type JournalLost } from './journal-file';

let dir: string;
let journal: Journal;
let told: JournalLost[];
let unsubscribe: () => void;
beforeEach(async () => {
  dir = await tempDir('journal-lost-');
  journal = openJournal(dir);
  told = [];
  unsubscribe = whenJournalLost((lost) => told.push(lost));
});
afterEach(async () => {
  unsubscribe();
  journal.close();
  await rm(dir, { recursive: true, force: true });
});

const file = (name: string) => ({ path: `/watched/${name}`, name, size: 10, mtimeMs: 1 });

describe('journal: its file lost while open', () => {
  for (const [loss, harm, said] of [
    ['removed', (path: string) => Promise.all(['', '-wal', '-shm'].map((end) => rm(`${path}${end}`, { force: true }))), 'was deleted while the uploader ran'],
    ['emptied', (path: string) => truncate(path, 0), 'was emptied (it is 0 bytes now) while the uploader ran'],
    ['replaced', async (path: string) => {
      await writeFile(`${path}.new`, 'another file');
      await rename(`${path}.new`, path);
    }, 'was replaced by another file of that name while the uploader ran'],
  ] as const) {
    it(`${loss}: the next write is refused in words, nothing more is written, and the listeners are told once`, async () => {
      const path = join(dir, JOURNAL_FILE);
      const a = journal.insertJob(file('census-a.csv'), 1, '2026-01-01');
      await harm(path);
      const after = await readFile(path).catch(() => undefined);

      let refused: Error | undefined;
      try {
        journal.update(a.id, { state: 'uploading' }, 2);
      } catch (error) {
        refused = error as Error;
      }
      expect(refused?.message).toContain(`the upload journal ${path} ${said}; uploads stopped, and nothing more is written to it.`);
      expect(refused?.message).toContain('start the uploader again: it makes a new,\nempty journal');
      expect(() => journal.insertJob(file('census-b.csv'), 3, '2026-01-01')).toThrow(said);
      expect(journal.lost()?.message).toBe(refused?.message);
      expect(told).toEqual([{ path, loss }]);
      expect(await readFile(path).catch(() => undefined)).toEqual(after);
    });
  }

  it('a journal removed while nothing is written is noticed by itself, within a few seconds', async () => {
    const path = join(dir, JOURNAL_FILE);
    journal.insertJob(file('census-a.csv'), 1, '2026-01-01');
    await rm(path);
    expect(await eventually(() => told[0], 10_000)).toEqual({ path, loss: 'removed' });
  });
});
