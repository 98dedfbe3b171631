/**
 * The uploader's data folder going wrong under the real command: a damaged or unwritable journal, and the folder
 * removed while `watch` runs. Real CLI processes, a real local server, real files.
 */
import { chmod, mkdir, readFile, readdir, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimOwner } from '../../electron/core/queue/folder-claims';
import { OBEYING_FILE_MODES, runCli, startCli, uploaderEnv } from '../helpers/cli';
import type { TestServer } from '../helpers/local-server';
import { eventually, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

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
      await eventually(() => stat(join(dataDir, 'upload-queue.lock')).catch(() => undefined), 30_000);
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
});
