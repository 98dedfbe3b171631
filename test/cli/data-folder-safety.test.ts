/**
 * The uploader's data folder going wrong under the real command: a damaged or unwritable journal, and the folder
 * removed while `watch` runs. Real CLI processes, a real local server, real files.
 */
import Database from 'libsql';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, readdir, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimOwner } from '../../electron/core/queue/folder-claims';
import { OBEYING_FILE_MODES, runCli, startCli, uploaderEnv } from '../helpers/cli';
import type { TestServer } from '../helpers/local-server';
import { eventually, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { mountSmallDisk } from '../helpers/small-disk';

describe('payroll-uploader watch and its data folder', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async () => {
    const dir = await tempDir('payroll-datadir-');
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    for (const d of dirs) await chmod(d, 0o700).catch(() => undefined);
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });
  const envOf = (dataDir: string) => uploaderEnv(dataDir);
  /** A data folder whose journal a first run made. */
  const withJournal = async () => {
    const dataDir = await folder();
    const watched = await folder();
    const first = await runCli(['watch', watched, '--base-url', server.url, '--once'], envOf(dataDir));
    expect(first.code).toBe(0);
    return { dataDir, watched, journal: join(dataDir, 'upload-queue.sqlite') };
  };

  for (const [damage, harm] of [
    ['its start overwritten', async (path: string) => {
      const bytes = await readFile(path);
      bytes.write('garbage garbage garbage garbage garbage garbage', 0);
      await writeFile(path, bytes);
    }],
    ['truncated', (path: string) => truncate(path, 10_000)],
  ] as const) {
    it(`a journal ${damage} is named, with the rename that moves it aside; it is left as it is, and after the rename a claimed file is sent`, async () => {
      const { dataDir, watched, journal } = await withJournal();
      await harm(journal);
      const damaged = await readFile(journal);
      const res = await runCli(['watch', watched, '--base-url', server.url, '--once'], envOf(dataDir));
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`payroll-uploader watch: the upload journal ${journal} is damaged (`);
      expect(res.stderr).toContain('It holds the upload history and the state of the files in progress.');
      const renames = /renaming, in that folder, (.*),\n/.exec(res.stderr)?.[1];
      expect(renames).toMatch(/^upload-queue\.sqlite -> upload-queue\.sqlite\.damaged-\d{4}-\d\d-\d\d/);
      expect(await readFile(journal)).toEqual(damaged);

      // The clerk does what it says, with a file this uploader had claimed but whose journal entry went with the damage.
      for (const pair of renames!.split(', ')) {
        const [from, to] = pair.split(' -> ') as [string, string];
        await rename(join(dataDir, from), join(dataDir, to));
      }
      const claims = join(watched, '.processing', claimOwner(dataDir));
      await mkdir(claims, { recursive: true });
      await writeFile(join(claims, 'census-2026-03-31.csv'), censusCsv(`after-damage-${damage.length}`));
      const again = await runCli(['watch', watched, '--base-url', server.url, '--once'], envOf(dataDir));
      expect(again.stderr).not.toMatch(/failed|damaged/);
      expect(again.code).toBe(0);
      const day = (await readdir(join(watched, 'uploaded')))[0]!;
      expect(await readdir(join(watched, 'uploaded', day))).toEqual(['census-2026-03-31.csv']);
      expect(await readFile(join(dataDir, renames!.split(', ')[0]!.split(' -> ')[1]!))).toEqual(damaged);
    }, 60_000);
  }

  for (const [damage, harm] of [
    ['a page past its first overwritten (its batches table)', async (path: string) => {
      // Every change in the file itself first, as a run that ended cleanly leaves it.
      const db = new Database(path);
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'batches'").get() as { rootpage: number };
      db.close();
      const file = await open(path, 'r+');
      await file.write(randomBytes(4096), 0, 4096, (rootpage - 1) * 4096);
      await file.close();
    }],
    ['emptied to 0 bytes', (path: string) => truncate(path, 0)],
  ] as const) {
    it(`a journal ${damage} is named as damaged, with the renames to make; nothing is taken, and it is left as it is`, async () => {
      const { dataDir, watched, journal } = await withJournal();
      await harm(journal);
      const damaged = await readFile(journal);
      await writeFile(join(watched, 'census-2026-04-30.csv'), censusCsv(`page-damage-${damage.length}`));
      const res = await runCli(['watch', watched, '--base-url', server.url, '--once'], envOf(dataDir));
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`payroll-uploader watch: the upload journal ${journal} is damaged (`);
      expect(res.stderr).toMatch(/renaming, in that folder, upload-queue\.sqlite -> upload-queue\.sqlite\.damaged-\d{4}-\d\d-\d\d/);
      expect(res.stderr).not.toContain('malformed');
      expect(await readFile(journal)).toEqual(damaged);
      expect(await readdir(watched)).toContain('census-2026-04-30.csv');
    }, 60_000);
  }

  it('a full disk under the data folder at start is said as a full disk, not as a "disk I/O error"', async () => {
    const disk = await mountSmallDisk('1m', { at: await folder() });
    try {
      const dataDir = join(disk.path, 'data');
      const watched = await folder();
      expect((await runCli(['watch', watched, '--base-url', server.url, '--once'], envOf(dataDir))).code).toBe(0);
      await disk.fill();
      const res = await runCli(['watch', watched, '--base-url', server.url, '--once'], envOf(dataDir));
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`the upload journal ${join(dataDir, 'upload-queue.sqlite')} could not be opened: `
        + `the disk that holds the data folder ${dataDir} is full (`);
      expect(res.stderr).toContain('free some space on it, then start the uploader again');
      expect(res.stderr).not.toContain('I/O');
    } finally {
      await disk.remove();
    }
  }, 60_000);

  it('a first start on a full disk leaves no journal behind: once space is freed the next start is a first start, not "damaged"', async () => {
    const disk = await mountSmallDisk('256k', { at: await folder() });
    try {
      const dataDir = join(disk.path, 'data');
      await mkdir(dataDir, { mode: 0o700 });
      const watched = await folder();
      const filler = await disk.fill();
      const full = await runCli(['watch', watched, '--base-url', server.url, '--once'], envOf(dataDir));
      expect(full.code).toBe(1);
      expect(full.stderr).toContain('free some space on it, then start the uploader again');
      expect(await readdir(dataDir)).not.toContain('upload-queue.sqlite');
      await rm(filler);
      const freed = await runCli(['watch', watched, '--base-url', server.url, '--once'], envOf(dataDir));
      expect(freed.code, freed.stderr).toBe(0);
      expect(freed.stderr).not.toContain('damaged');
    } finally {
      await disk.remove();
    }
  }, 60_000);

  it('a data folder this user cannot write in is named, with the permission problem, and the command fails', async () => {
    const dataDir = await folder();
    const watched = await folder();
    await chmod(dataDir, 0o555);
    const res = await runCli(['watch', watched, '--base-url', server.url, '--once'], envOf(dataDir), '', OBEYING_FILE_MODES);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`the upload journal ${join(dataDir, 'upload-queue.sqlite')} cannot be opened for writing: `
      + `the data folder ${dataDir} cannot be written (this user has no permission to write in it).`);
    expect(res.stderr).toContain('Give this user permission to write in that folder');
    expect(res.stderr).not.toContain('ConnectionFailed');
  }, 60_000);

  it('the data folder removed under a running watch: it says so, stops and exits 1 (a later watch there then runs alone)', async () => {
    const dataDir = await folder();
    const watched = await folder();
    const watch = startCli(['watch', watched, '--base-url', server.url, '--json'], envOf(dataDir));
    try {
      // Running: its folder watched, so its journal is open (removed while the lock alone was there, the journal's
      // opening says so in its own words: "the data folder … of the upload journal … was removed while the uploader ran").
      await eventually(() => watch.events.find((e) => e.event === 'folder' && e.data.state === 'watching'), 30_000);
      await rm(dataDir, { recursive: true, force: true });
      expect(await watch.exited).toBe(1);
      const said = watch.events.filter((e) => e.event === 'error').map((e) => (e.data as { message: string }).message);
      expect(said).toContainEqual(expect.stringContaining(`Uploads stopped: the data folder ${dataDir} was removed while the uploader ran; `
        + 'uploads stopped, and nothing more is written there.'));
      expect(watch.stderr()).toContain('payroll-uploader watch: stopped, as the data folder\'s lock was lost (its error message says why)');
    } finally {
      watch.child.kill('SIGTERM');
    }
  }, 60_000);

  it('the journal deleted under a running watch: it says so, stops and exits 1, and nothing more is written', async () => {
    const dataDir = await folder();
    const watched = await folder();
    const journal = join(dataDir, 'upload-queue.sqlite');
    const watch = startCli(['watch', watched, '--base-url', server.url, '--json'], envOf(dataDir));
    try {
      // Running, its journal open (deleted before it was made, there would be nothing to lose yet).
      await eventually(() => watch.events.find((e) => e.event === 'folder' && e.data.state === 'watching'), 30_000);
      await Promise.all(['', '-wal', '-shm'].map((end) => rm(`${journal}${end}`, { force: true })));
      expect(await watch.exited).toBe(1);
      const said = watch.events.filter((e) => e.event === 'error').map((e) => (e.data as { message: string }).message);
      expect(said).toContainEqual(expect.stringContaining(`Uploads stopped: the upload journal ${journal} was deleted while the uploader ran; `
        + 'uploads stopped, and nothing more is written to it.'));
      expect(watch.stderr()).toContain('payroll-uploader watch: stopped, as the upload journal was lost (its error message says why)');
      expect(await stat(journal).catch(() => undefined)).toBeUndefined();
    } finally {
      watch.child.kill('SIGTERM');
    }
  }, 60_000);
});
