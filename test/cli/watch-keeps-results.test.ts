/**
 * What the service made of a file `watch` uploaded in local mode is kept for History, as the desktop app keeps it
 * (electron/core/queue/import-results.ts): shown once by `watch`, and there in the journal when History asks later.
 * A real `payroll-uploader watch --once`, a real local server, real files; History's own query on the journal.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_FILE } from '../../electron/core/queue';
import { openJobQuery } from '../../electron/core/queue/job-query';
import { runCli, uploaderEnv } from '../helpers/cli';
import { startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

describe('payroll-uploader watch: processing results kept for History', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('a watch --once run, then History: the file shows its rows accepted and refused', async () => {
    const env = uploaderEnv(await folder('payroll-data-'));
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ preflight: 'off', stabilityMs: 300 }));
    const dir = await folder('payroll-watched-');
    await writeFile(join(dir, 'census-kept.csv'), `${censusCsv('kept', 2)}Roe,Jim,kept-bad,2020-02-30,ACTIVE\n`);
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once', '--env', 'local'], env);
    expect(res.stderr).toMatch(/processed census-kept\.csv \(import [^)]+\): 2 row\(s\) accepted, 1 refused/);
    const history = openJobQuery(join(env.PAYROLL_DATA_DIR, JOURNAL_FILE));
    try {
      const { items } = history.window({ sort: { by: 'foundAt', dir: 'desc' }, offset: 0, limit: 10 });
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        name: 'census-kept.csv', state: 'uploaded',
        importResult: { status: 'PROCESSED', acceptedRecords: 2, rejectedRecords: 1 },
      });
    } finally {
      history.close();
    }
  }, 60_000);
});
