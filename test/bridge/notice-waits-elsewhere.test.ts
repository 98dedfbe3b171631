/**
 * "1 file waits to be uploaded to another service, Production (…)" is over once uploads go to Production again: the
 * file is sent, and the notice goes with it instead of staying beside the news that it was uploaded. Two real local
 * servers over HTTP, a real session on a real journal and watched folder, started twice on the same data folder as
 * the app is from one day to the next.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobView } from '../../shared/bridge';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

let sandbox: TestServer;
let production: TestServer;
let engine: UiEngine | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  [sandbox, production] = await Promise.all([startTestServer(), startTestServer()]);
}, 60_000);

afterAll(async () => {
  await engine?.stop();
  await Promise.all([sandbox?.stop(), production?.stop()]);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

it('takes the notice of a file waiting for another service away once uploads go to that service', async () => {
  const watched = await tempDir('payroll-waits-elsewhere-watched-');
  const dataDir = await tempDir('payroll-waits-elsewhere-data-');
  dirs.push(watched, dataDir);
  const start = () => startUiEngine({
    dataDir,
    settings: {
      activeProfile: 'production', watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000, preflight: 'block',
      profiles: { sandbox: { baseUrl: sandbox.url }, production: { baseUrl: production.url } },
    },
    env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
  });
  const finished = (outcome: JobView['outcome']) => eventually(async () => {
    const { items } = await callOk(engine!, 'jobs.query', { text: 'census-late', finished: true });
    return items.find((job) => job.outcome === outcome);
  }, 30_000);

  // Refused by Production; the clerk fixes it while working on Sandbox and puts it back: it waits for Production.
  engine = await start();
  await callOk(engine, 'watch.start');
  await writeFile(join(watched, 'census-late.csv'), csvText('census', [censusRow(1, { hireDate: '2026-02-30' })]));
  const refused = await finished('rejected');
  await callOk(engine, 'profile.switch', { profile: 'sandbox' });
  await writeFile(refused.archivedPath!, csvText('census', [censusRow(1)]));
  await callOk(engine, 'jobs.requeue', { id: refused.id });
  await engine.stop();

  // The next day the app opens on Sandbox and says the file waits for Production.
  engine = await start();
  await callOk(engine, 'watch.start');
  const waiting = async () => (await callOk(engine!, 'notices.list')).items.filter((n) => /waits to be uploaded to another service, Production/.test(n.message));
  await eventually(async () => (await waiting()).length === 1 || undefined, 30_000);

  // Back on Production it is sent, and the notice is over.
  await callOk(engine, 'profile.switch', { profile: 'production' });
  await finished('uploaded');
  await eventually(async () => (await waiting()).length === 0 || undefined, 30_000);

  // Switched to Sandbox again, nothing waits for Production any more: nothing is said.
  await callOk(engine, 'profile.switch', { profile: 'sandbox' });
  expect(await waiting()).toEqual([]);
}, 120_000);
