/**
 * An export tool that pauses longer than the stability wait and writes its last rows while the file is being sent
 * (a slow link): a real `payroll-uploader watch`, a real local server slowed on its upload address, one open handle
 * writing. The service gets the file as it was read; the grown file must not be sent again as a new version, which
 * would send the rows the service already holds a second time (receipts counted twice). It is kept, unsent, and the
 * clerk is told.
 */
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, uploaderEnv } from '../helpers/cli';
import { md5 } from '../helpers/csv-fixtures';
import { api, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { CENSUS_HEADER } from '../helpers/queue-kit';

describe('payroll-uploader watch: rows written while the file is being uploaded', () => {
  let server: TestServer;
  let token: string;
  let dirs: string[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const uploads = () => server.ctx.db.prepare("SELECT checksum FROM files WHERE status = 'UPLOADED'").all() as { checksum: string }[];

  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await api(server.url, token, 'DELETE', '/local/v1/faults');
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('sends the file as it was read, once, and keeps the grown file in not-sent/ instead of sending it again', async () => {
    // A slow link: the upload takes seconds, long enough for the tool to go on writing.
    await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/uploads/', latencyMs: 3_000 }]);
    const env = uploaderEnv(await folder('payroll-data-'));
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ stabilityMs: 300 }));
    const dir = await folder('payroll-watched-');
    const rows = Array.from({ length: 4 }, (_, i) => `Doe,Jane,grown-${i},2020-01-31,ACTIVE\n`);
    const first = `${CENSUS_HEADER}\n${rows.slice(0, 3).join('')}`;
    const whole = first + rows[3];

    const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
    try {
      await eventually(() => watch.events.find((e) => e.event === 'folder' && (e.data as { state?: string }).state === 'watching'), 30_000);
      const exporter = await open(join(dir, 'census-grown.csv'), 'w');
      try {
        await exporter.write(first);
        // The pause is taken for the end: the first rows have gone out, the answer not come back (the slow link),
        // when the tool writes its last one.
        await eventually(() => watch.events.find((e) => {
          const p = e.data as { phase?: string; bytes?: number; total?: number };
          return e.event === 'progress' && p.phase === 'uploading' && p.bytes === first.length && p.total === first.length;
        }), 60_000);
        await exporter.write(rows[3]!);
      } finally {
        await exporter.close();
      }
      const told = await eventually(() => watch.events.find((e) => e.event === 'error' && /changed after it was read and uploaded/.test(String(e.data.message))), 60_000)
        .catch((error: unknown) => {
          throw new Error(`${String(error)}; stderr: ${watch.stderr().slice(-2000)}`);
        });
      const kept = join(dir, 'not-sent', 'census-grown.csv');
      // Every byte the tool wrote is kept, where the clerk sees it, and the words say what the service has.
      expect(await readFile(kept, 'utf8')).toBe(whole);
      const message = String(told.data.message);
      expect(message).toContain(kept);
      expect(message).toMatch(/the service holds it as it was then \(\d+ bytes, import [\w-]+\); the rows written after that were not sent/);
      expect(message).toMatch(/send only the rows the service lacks, in a file of their own/);
      // The service holds the file as it was read, once; the grown file was never queued again.
      expect(uploads()).toEqual([{ checksum: md5(first) }]);
      const jobs = new Set(watch.events.filter((e) => e.event === 'job').map((e) => (e.data as { id: number }).id));
      expect(jobs.size).toBe(1);
      const result = watch.events.filter((e) => e.event === 'result').at(-1);
      expect(result?.data).toMatchObject({ state: 'uploaded' });
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  }, 180_000);
});
