/**
 * `payroll-uploader watch --once` with a client secret the service does not accept: the run ends at once (nothing on
 * a timer can change the answer), exits 1, keeps the file queued in place, and says what to do on the command line as
 * well as in the app. A real CLI process, a real local server over HTTP.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, uploaderEnv } from '../helpers/cli';
import { TEST_CLIENT, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

let server: TestServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

it('watch --once holds a file the service cannot take with these credentials, and says how to set them', async () => {
  const dataDir = await tempDir('payroll-watch-creds-data-');
  const dir = await tempDir('payroll-watch-creds-');
  dirs.push(dataDir, dir);
  await writeFile(join(dir, 'census-creds.csv'), censusCsv('watch-creds'));
  const env = uploaderEnv(dataDir, { PAYROLL_CLIENT_SECRET: 'not-the-secret-000' });

  const res = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
  expect(res.code).toBe(1);
  expect(res.stderr).toContain(`failed: census-creds.csv: The service did not accept the client ID ${TEST_CLIENT.id} and its secret `
    + '(it said: unknown client or wrong client secret). No file is uploaded until they are right:');
  expect(res.stderr).toMatch(/On the command line, run `payroll-uploader credentials set --env \w+` \(or set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET\), then start the uploader again; it stays queued for the next run/);
  // Nothing refused: the file stays claimed in place for the next run.
  expect(await readdir(dir)).not.toContain('rejected');
}, 120_000);
