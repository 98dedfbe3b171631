/** The local server's database for unit tests: opened in a fresh folder, closed and removed when the test ends. */
import { rm } from 'node:fs/promises';
import { onTestFinished } from 'vitest';
import { openDatabase, type Db } from '../../electron/server/db/database';
import { tempDir } from './local-server';

export async function testDatabase(): Promise<Db> {
  const dir = await tempDir();
  const db = openDatabase(dir);
  onTestFinished(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });
  return db;
}
