/**
 * The server's data folder is on a full disk when it first starts there: its database cannot be made. The server says so in words that name the folder and what to do, not in SQLite's ("database
 * or disk is full"), and nothing is left that a later start would take for a database. A real 1 MB tmpfs (mounted as
 * root), the real openDatabase.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DB_FILE, openDatabase } from './database';
import { DatabaseDiskFullError } from './database-errors';
import { mountSmallDisk, type SmallDisk } from '../../../test/helpers/small-disk';

let disk: SmallDisk | undefined;
afterEach(async () => {
  await disk?.remove();
  disk = undefined;
});

/** A data folder on a fresh 1 MB tmpfs, and a filler that takes the rest of it (remove it for space to return). */
async function fullDisk(): Promise<{ dataDir: string; filler: string }> {
  disk = await mountSmallDisk('1m', { prefix: 'server-db-tmpfs-' });
  const dataDir = join(disk.path, 'data');
  await mkdir(dataDir);
  return { dataDir, filler: await disk.fill() };
}

function openError(dataDir: string): Error {
  try {
    openDatabase(dataDir).close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the database opened on a full disk');
}

it('says a new database cannot be made on a full disk, in words naming the folder, and makes it once space returns', async () => {
  const { dataDir, filler } = await fullDisk();
  const error = openError(dataDir);
  expect(error).toBeInstanceOf(DatabaseDiskFullError);
  expect(error.message).toBe(`the local server's database ${join(dataDir, DB_FILE)} could not be made: the disk that holds ${dataDir} `
    + 'is full, so the server cannot start. Free some space on that disk and start the server again.');
  // No database file a later start would call damaged (empty) or take as made.
  expect((await readdir(dataDir)).filter((name) => name === DB_FILE)).toEqual([]);

  await rm(filler);
  const db = openDatabase(dataDir);
  expect((db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'imports'").get() as { n: number }).n).toBe(1);
  db.close();
}, 30_000);
