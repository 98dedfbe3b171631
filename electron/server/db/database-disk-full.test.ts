/**
 * The server's data folder is on a full disk when it first starts there: its database cannot be made. The server says so in words that name the folder and what to do, not in SQLite's ("database
 * or disk is full"), and nothing is left that a later start would take for a database. A real 1 MB tmpfs (mounted as
 * root), the real openDatabase.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/local-server';
import { DB_FILE, openDatabase } from './database';
import { DatabaseDiskFullError } from './database-errors';

const run = promisify(execFile);
let mountPoint: string | undefined;
afterEach(async () => {
  if (mountPoint) {
    await run('umount', ['-l', mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  }
  mountPoint = undefined;
});

/** A data folder on a fresh 1 MB tmpfs, and a filler that takes the rest of it (remove it for space to return). */
async function fullDisk(): Promise<{ dataDir: string; filler: string }> {
  mountPoint = await tempDir('server-db-tmpfs-');
  await run('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
  const dataDir = join(mountPoint, 'data');
  await mkdir(dataDir);
  const filler = join(mountPoint, 'filler');
  await run('sh', ['-c', `dd if=/dev/zero of=${filler} bs=4k 2>/dev/null || true`]);
  return { dataDir, filler };
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
