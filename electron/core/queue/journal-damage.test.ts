/**
 * A journal found damaged or unusable when it is opened is said in the same words whatever the damage: a page past
 * the first one overwritten (which SQLite itself reads as malformed only once a step reaches it), a file emptied to
 * 0 bytes (which SQLite would take for a new, empty journal). Real SQLite files. (A full disk at start: the CLI's
 * test/cli/data-folder-safety.test.ts, as it needs a process of its own.)
 */
import Database from 'libsql';
import { randomBytes } from 'node:crypto';
import { open, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/local-server';
import { JOURNAL_FILE, openJournal } from './journal';
import type { JournalUnusableError } from './journal-errors';

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});
const folder = async () => {
  const dir = await tempDir('journal-damage-');
  dirs.push(dir);
  return dir;
};

/** Moves every change into the journal file itself and removes its -wal and -shm, as an uploader that ended leaves it. */
async function settle(dir: string): Promise<void> {
  const db = new Database(join(dir, JOURNAL_FILE));
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  await Promise.all(['-wal', '-shm'].map((end) => rm(join(dir, `${JOURNAL_FILE}${end}`), { force: true })));
}

/** A journal as a run leaves it: jobs and a batch written. */
async function usedJournal(): Promise<string> {
  const into = await folder();
  const journal = openJournal(into);
  const job = journal.insertJob({ path: '/watched/census-a.csv', name: 'census-a.csv', size: 10, mtimeMs: 1 }, 1, '2026-01-01');
  journal.update(job.id, { state: 'uploaded', archivedAt: 2, watchUntil: 3 }, 2);
  journal.insertBatch('census', 2, 3);
  journal.close();
  await settle(into);
  return into;
}

function openError(dir: string): JournalUnusableError {
  try {
    openJournal(dir).close();
  } catch (error) {
    return error as JournalUnusableError;
  }
  throw new Error('the journal opened');
}

const PAGE = 4096;

describe('journal: damage found when it is opened', () => {
  it('a page past the first overwritten, for each table and index, is said as damage with the renames to make, and left as it is', async () => {
    const source = await usedJournal();
    const db = new Database(join(source, JOURNAL_FILE));
    const pages = db.prepare("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 1 ORDER BY rootpage").all() as { name: string; rootpage: number }[];
    db.close();
    expect(pages.map((page) => page.name)).toEqual(expect.arrayContaining(['jobs', 'batches', 'jobs_live', 'jobs_watched']));
    for (const { name, rootpage } of pages) {
      const dir = await folder();
      const path = join(dir, JOURNAL_FILE);
      await writeFile(path, await readFile(join(source, JOURNAL_FILE)));
      const file = await open(path, 'r+');
      await file.write(randomBytes(PAGE), 0, PAGE, (rootpage - 1) * PAGE);
      await file.close();
      const damaged = await readFile(path);

      const error = openError(dir);
      expect({ page: name, reason: error.reason }).toEqual({ page: name, reason: 'damaged' });
      expect(error.message).toContain(`the upload journal ${path} is damaged (SQLite's check of its pages found damage: `);
      expect(error.message).toMatch(/renaming, in that folder, upload-queue\.sqlite -> upload-queue\.sqlite\.damaged-\d{4}-\d\d-\d\d/);
      expect(error.message).not.toContain('malformed');
      expect(await readFile(path)).toEqual(damaged);
    }
  });

  it('a journal emptied to 0 bytes is damage, not a new journal: said so, and left empty', async () => {
    const dir = await usedJournal();
    const path = join(dir, JOURNAL_FILE);
    await truncate(path, 0);
    const error = openError(dir);
    expect(error.reason).toBe('damaged');
    expect(error.message).toContain(`the upload journal ${path} is damaged (the file is empty: 0 bytes), so the uploader cannot start.`);
    expect(error.message).toContain('renaming, in that folder, upload-queue.sqlite -> upload-queue.sqlite.damaged-');
    expect((await stat(path)).size).toBe(0);
  });
});
