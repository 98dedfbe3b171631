/**
 * The archive folder on another drive (a tmpfs mounted for the test, as root) and an export tool that pauses longer
 * than the stability wait while it holds the file open: a real `payroll-uploader watch`, a real local server, a real
 * writer. The file is taken at the pause, uploaded and filed as it was then; what the tool writes next must not be
 * lost, and the clerk must be told where those rows are and that they were not sent.
 */
import { mkdir, open, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, uploaderEnv } from '../helpers/cli';
import { md5 } from '../helpers/csv-fixtures';
import { eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { CENSUS_HEADER } from '../helpers/queue-kit';
import { mountSmallDisk } from '../helpers/small-disk';

describe('payroll-uploader: archive folder on another drive, an export that pauses', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const held = (checksum: string) => server.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as { n: number };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('no row written after the pause is lost: the whole export is kept in not-sent/ and the clerk is told the late rows were not sent', async () => {
    const drive = await mountSmallDisk('16m', { at: await folder('payroll-other-drive-') });
    const mountPoint = drive.path;
    try {
      const archive = join(mountPoint, 'archive');
      await mkdir(archive);
      const env = uploaderEnv(await folder('payroll-data-'));
      await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ archive: { dir: archive }, stabilityMs: 300 }));
      const dir = await folder('payroll-watched-');
      const rows = Array.from({ length: 30 }, (_, i) => `Doe,Jane,late-${i},2020-01-31,ACTIVE\n`);
      const first = `${CENSUS_HEADER}\n${rows.slice(0, 10).join('')}`;
      const later = [rows.slice(10, 20).join(''), rows.slice(20).join('')];
      const whole = first + later.join('');

      const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
      try {
        await eventually(() => watch.events.find((e) => e.event === 'folder' && (e.data as { state?: string }).state === 'watching'), 30_000);
        // One open handle, as the export tool holds it; it pauses after the first rows.
        const exporter = await open(join(dir, 'census-late.csv'), 'w');
        try {
          await exporter.write(first);
          // The pause is taken for the end: the first rows are uploaded and filed onto the other drive.
          await eventually(() => watch.events.find((e) => e.event === 'result'), 60_000);
          for (const chunk of later) await exporter.write(chunk);
        } finally {
          await exporter.close();
        }
        const told = await eventually(() => watch.events.find((e) => e.event === 'error' && /changed after it was uploaded/.test(String(e.data.message))), 30_000)
          .catch((error: unknown) => {
            throw new Error(`${String(error)}; stderr: ${watch.stderr().slice(-2000)}`);
          });
        const kept = join(dir, 'not-sent', 'census-late.csv');
        // Every byte the tool wrote is on disk, in a folder the clerk sees.
        expect(await readFile(kept, 'utf8')).toBe(whole);
        const message = String(told.data.message);
        expect(message).toContain(kept);
        expect(message).toMatch(/census-late\.csv changed after it was uploaded and was filed away: what changed was not sent/);
        expect(message).toMatch(/send only the rows the service lacks, in a file of their own/);
        // What was uploaded is what was filed: the first rows, held by the service; the late rows were not sent.
        const day = (await readdir(join(archive, 'uploaded')))[0]!;
        const filed = join(archive, 'uploaded', day, 'census-late.csv');
        expect(message).toContain(filed);
        expect(await readFile(filed, 'utf8')).toBe(first);
        expect(held(md5(first)).n).toBe(1);
        expect(held(md5(whole)).n).toBe(0);
        // Nothing is left aside in the claim folder.
        const left = (await readdir(dir, { recursive: true })).filter((f) => f.includes('.payroll-held'));
        expect(left).toEqual([]);
      } finally {
        watch.child.kill('SIGTERM');
        await watch.exited;
      }
    } finally {
      await drive.remove();
    }
  }, 180_000);
});
