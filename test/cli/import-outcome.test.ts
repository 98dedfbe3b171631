/**
 * `watch --once` in local mode counts a file by what the service made of it, not only by its upload: a file the
 * service refused as a whole after its upload, or any of whose rows it refused, failed (exit 1, said on standard
 * error with what to do), as the scheduled task's operator reads the exit code. Real `payroll-uploader` processes, a
 * real local server, real files; the preflight is off so that the service, not the uploader, is the one to refuse.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, uploaderEnv } from '../helpers/cli';
import { startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { CENSUS_HEADER, RECEIPT_HEADER, censusCsv } from '../helpers/queue-kit';

describe('payroll-uploader watch --once: the processing result counts', () => {
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

  /** One `watch --once` run in local mode on a folder holding only `name` with `content`. */
  async function runOn(name: string, content: string) {
    const env = uploaderEnv(await folder('payroll-data-'));
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ preflight: 'off', stabilityMs: 300 }));
    const dir = await folder('payroll-watched-');
    await writeFile(join(dir, name), content);
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once', '--env', 'local'], env);
    // Uploaded all the same: the service holds it, and it is filed as such.
    expect((await readdir(join(dir, 'uploaded'), { recursive: true })).filter((f) => f.endsWith(name))).toHaveLength(1);
    return res;
  }

  it('a file the service refused as a whole after its upload failed', async () => {
    // A quote never closed on line 3: the preflight that is off reads no further than the first data row.
    const res = await runOn('census-unclosed.csv', `${CENSUS_HEADER}\nDoe,Jane,u-1,2020-01-31,ACTIVE\nDoe,"Jim,u-2,2020-01-31,ACTIVE\n`);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/processed census-unclosed\.csv \(import [^)]+\): failed: the service refused the whole file after its upload: .*never closed; none of its rows was imported: correct the file and export it again\n/);
    expect(res.stdout).not.toMatch(/processed/);
  }, 60_000);

  it('a file none of whose rows the service imported failed', async () => {
    // The service knows no census record of this employee: it refuses the receipt row.
    const res = await runOn('receipt-unknown.csv', `${RECEIPT_HEADER}\nDoe,Jane,123-45-6789,NOBODY-1,2026-01-31,10.25\n`);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/processed receipt-unknown\.csv \(import [^)]+\): 0 row\(s\) accepted, 1 refused; failed: none of its rows was imported: correct them and export the file again\n {4}line 2: employeeRegistration NOBODY-1 is not known/);
  }, 60_000);

  it('a file with some rows refused failed too, and says how many and how to send only them', async () => {
    const res = await runOn('census-some.csv', `${censusCsv('some', 2)}Roe,Jim,some-bad,2020-02-30,ACTIVE\n`);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/processed census-some\.csv \(import [^)]+\): 2 row\(s\) accepted, 1 refused; failed: 1 of its rows was not imported: correct it and send only it again \(payroll-uploader send, or Send records in the app\)\n {4}line 4: .*hireDate/);
  }, 60_000);
});
