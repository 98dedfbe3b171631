/**
 * An exporter that writes the header, runs its query (a pause longer than the stability wait), then writes the rows:
 * common for SQL and BCP tools. The file must not be taken at the pause (it would be refused as "no data rows" and
 * moved to rejected/, where the rows then land unread): it waits as an empty file does. A real `payroll-uploader
 * watch`, a real local server, one open handle writing.
 */
import { open, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, uploaderEnv } from '../helpers/cli';
import { md5 } from '../helpers/csv-fixtures';
import { eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { CENSUS_HEADER } from '../helpers/queue-kit';

const STABILITY_MS = 1000;

describe('payroll-uploader watch: an export whose header is written before its rows', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const one = (sql: string, ...args: unknown[]) => server.ctx.db.prepare(sql).get(...args) as Record<string, unknown> | undefined;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('waits past the pause after the header and uploads the whole file; the service holds every row', async () => {
    // At debug level the watcher says when it has found a file holding only its first line, and waits on.
    const env = uploaderEnv(await folder('payroll-data-'), { PAYROLL_LOG_LEVEL: 'debug' });
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ stabilityMs: STABILITY_MS }));
    const dir = await folder('payroll-watched-');
    const header = `${CENSUS_HEADER}\r\n`;
    const registrations = Array.from({ length: 5 }, (_, i) => `header-first-${i}`);
    const rows = registrations.map((registration, i) => `Emp${i},Ana,${registration},2020-01-02,ACTIVE\r\n`).join('');

    const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
    try {
      await eventually(() => watch.events.find((e) => e.event === 'folder' && e.data.state === 'watching'), 30_000);
      const exporter = await open(join(dir, 'census-2026-05-11.csv'), 'w');
      try {
        await exporter.write(header);
        const headerAt = performance.now();
        // The query runs: three stability waits, less than the five an empty file is given. The watcher has looked at
        // the header alone by then (unchanged for a stability wait) and said it waits on; with a stability wait of 1 s
        // a loaded machine has 2 s to spare before the rows would come too late.
        await eventually(() => (watch.stderr().includes('census-2026-05-11.csv holds only its first line so far') || undefined), 30_000);
        await new Promise((done) => setTimeout(done, Math.max(0, 3 * STABILITY_MS - (performance.now() - headerAt))));
        await exporter.write(rows);
      } finally {
        await exporter.close();
      }
      const result = await eventually(() => watch.events.find((e) => e.event === 'result'), 60_000);
      expect(result.data, watch.stderr()).toMatchObject({ state: 'uploaded', name: 'census-2026-05-11.csv' });
      expect(await readdir(dir)).not.toContain('rejected');
      const file = one("SELECT import_id FROM files WHERE checksum = ? AND status = 'UPLOADED'", md5(header + rows));
      expect(file).toBeDefined();
      const processed = await eventually(() => {
        const row = one('SELECT status, accepted, rejected FROM imports WHERE id = ?', file?.import_id);
        return row?.status === 'PROCESSED' ? row : undefined;
      }, 60_000);
      expect(processed).toMatchObject({ accepted: 5, rejected: 0 });
      for (const registration of registrations) {
        expect(one('SELECT 1 AS held FROM census_registrations WHERE employee_registration = ?', registration)).toMatchObject({ held: 1 });
      }
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  }, 120_000);
});
