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
  // They came from PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET, which win over any saved with `credentials set`: those
  // are what to change, not the saved ones (changed, they would not be used).
  expect(res.stderr).toContain(`failed: census-creds.csv: The service did not accept the client ID ${TEST_CLIENT.id} and its secret `
    + 'from the environment variables PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET (it said: unknown client or wrong client secret). '
    + 'No file is uploaded until they are right: set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET to the client ID and secret your service '
    + 'provider gave you, or remove both so that the ones saved in Settings (or by `payroll-uploader credentials set --env ');
  expect(res.stderr).toMatch(/\) are used, then start the app or the uploader again: while either variable is set, what is saved in Settings is not used; it stays queued for the next run/);
  expect(res.stderr).not.toContain('open Settings, type');
  // Nothing refused: the file stays claimed in place for the next run.
  expect(await readdir(dir)).not.toContain('rejected');
}, 120_000);

it('watch --once names the variable that is missing when only one of the pair is set, not Settings', async () => {
  const dataDir = await tempDir('payroll-watch-creds-half-data-');
  const dir = await tempDir('payroll-watch-creds-half-');
  dirs.push(dataDir, dir);
  await writeFile(join(dir, 'census-half.csv'), censusCsv('watch-creds-half'));
  const env = uploaderEnv(dataDir, { PAYROLL_CLIENT_SECRET: '' });

  const res = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
  expect(res.code).toBe(1);
  expect(res.stderr).toContain('failed: census-half.csv: PAYROLL_CLIENT_ID is set but PAYROLL_CLIENT_SECRET is not. No file is uploaded '
    + 'until a client ID and secret are set: set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET to the client ID and secret your service '
    + 'provider gave you, or remove both so that the ones saved in Settings');
  expect(res.stderr).not.toContain('open Settings, type');
  expect(await readdir(dir)).not.toContain('rejected');
}, 120_000);
