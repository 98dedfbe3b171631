/**
 * A file the uploader sees but cannot take up: the export folder cannot be written (so the file cannot be claimed
 * into .processing/), a plain file named .processing is in the way, or the journal's disk is full. Real `payroll-uploader`
 * processes, a real local server, real folders (a real tmpfs for the full disk).
 */
import { chmod, mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OBEYING_FILE_MODES, runCli, startCli, uploaderEnv } from '../helpers/cli';
import { md5 } from '../helpers/csv-fixtures';
import type { TestServer } from '../helpers/local-server';
import { eventually, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { mountSmallDisk } from '../helpers/small-disk';

describe('payroll-uploader watch: a file that cannot be taken up is a failure, said in plain words', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async (prefix = 'payroll-not-taken-') => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const uploaded = (checksum: string) =>
    Object.values(server.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as object)[0] as number;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    for (const d of dirs) await chmod(d, 0o700).catch(() => undefined);
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('watch --once exits 1 for a file in a folder it may not write in, saying why and what to do', async () => {
    const env = uploaderEnv(await folder('payroll-data-'));
    const dir = await folder();
    await writeFile(join(dir, 'census-ro.csv'), censusCsv('read-only-folder'));
    await chmod(dir, 0o555);
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once', '--max-wait', '3600'], env, '', OBEYING_FILE_MODES);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain(`not taken: census-ro.csv: this uploader may not write in the folder ${dir}, and it needs to: it moves each file into the folder's .processing folder before reading it`);
    expect(res.stderr).toMatch(/Give the account the uploader runs as permission to change files in that folder; it stays in place for the next run/);
    // Said in words, not as the system's error text.
    expect(res.stderr).not.toMatch(/EACCES|permission denied/);
    expect(await readdir(dir)).toEqual(['census-ro.csv']);
    expect(uploaded(md5(censusCsv('read-only-folder')))).toBe(0);
  }, 60_000);

  it('watch --once exits 1 when a plain file named .processing is in the way, and says to remove it', async () => {
    const env = uploaderEnv(await folder('payroll-data-'));
    const dir = await folder();
    await writeFile(join(dir, '.processing'), 'not a folder');
    await writeFile(join(dir, 'census-blocked.csv'), censusCsv('blocked-claims'));
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain(`not taken: census-blocked.csv: a file named .processing is in the folder ${dir}, where the uploader keeps the files it is working on in a folder of that name: remove or rename that file; it stays in place for the next run`);
    expect(res.stderr).not.toMatch(/ENOTDIR/);
    expect((await readdir(dir)).sort()).toEqual(['.processing', 'census-blocked.csv']);
  }, 60_000);

  it('watch --once exits 1 for a file the journal cannot take (its disk is full), and the next run takes it', async () => {
    const disk = await mountSmallDisk('2m', { at: await folder('payroll-tmpfs-') });
    try {
      const dataDir = join(disk.path, 'data');
      await mkdir(dataDir);
      const env = uploaderEnv(dataDir);
      const dir = await folder();
      // The file settles for 3 s after its last change before it is taken.
      await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ stabilityMs: 3000 }));
      const content = censusCsv('journal-full', 30);
      const path = join(dir, 'census-full.csv');
      await writeFile(path, content);
      // The export is touched (a new modification time, so a new version to the watcher) until the disk is full: it
      // cannot settle and be taken before the disk is filled, however slowly this test gets there on a loaded machine.
      let filled = false;
      const toucher = (async () => {
        while (!filled) {
          const now = new Date();
          await utimes(path, now, now);
          await new Promise((r) => setTimeout(r, 200));
        }
      })();
      const once = startCli(['watch', dir, '--base-url', server.url, '--once', '--json'], env);
      let filler: string | undefined;
      try {
        await eventually(() => once.events.find((e) => e.event === 'folder' && e.data.state === 'watching'), 30_000);
        filler = await disk.fill();
      } finally {
        filled = true;
        await toucher;
      }
      expect(await once.exited, once.stderr()).toBe(1);
      expect(once.stderr()).toContain(`not taken: census-full.csv: new files cannot be taken up for now: the disk that holds the data folder ${dataDir} is full`);
      expect(once.stderr()).toMatch(/; it stays in place for the next run/);
      // Given back to the folder, not left claimed.
      expect(await readdir(dir)).toEqual(['census-full.csv']);
      await rm(filler);
      const again = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
      expect(again.stderr).not.toContain('not taken');
      expect(again.code, again.stderr).toBe(0);
      expect(uploaded(md5(content))).toBe(1);
    } finally {
      await disk.remove();
    }
  }, 120_000);

  it('watch says a claim problem once, not at every sweep, says when it is over, and then takes the files up', async () => {
    const env = uploaderEnv(await folder('payroll-data-'), { PAYROLL_LOG_LEVEL: 'debug' });
    const dir = await folder();
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ sweepIntervalMs: 1000, stabilityMs: 200 }));
    await writeFile(join(dir, '.processing'), 'not a folder');
    const content = censusCsv('blocked-a-while');
    await writeFile(join(dir, 'census-blocked.csv'), content);
    const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
    try {
      const said = () => watch.events.filter((e) => e.event === 'error' && String(e.data.message).includes('a file named .processing'));
      await eventually(() => said()[0], 30_000);
      expect(String(said()[0]!.data.message)).toMatch(/^new files cannot be taken up for now: a file named \.processing is in the folder .*: remove or rename that file\. They wait in the watched folder, where nothing is lost, and are taken up once that is fixed\.$/);
      // The sweeps offer the file again and again; the same cause is not said again.
      await eventually(() => ((watch.stderr().match(/census-blocked\.csv waits too/g) ?? []).length >= 3 ? true : undefined), 30_000);
      expect(said()).toHaveLength(1);
      expect(uploaded(md5(content))).toBe(0);
      await rm(join(dir, '.processing'));
      await eventually(() => watch.events.find((e) => e.event === 'notice' && /files can be claimed in the watched folder again/.test(String(e.data.message))), 30_000);
      const result = await eventually(() => watch.events.find((e) => e.event === 'result'), 30_000);
      expect(result.data.state).toBe('uploaded');
      expect(uploaded(md5(content))).toBe(1);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  }, 90_000);
});
