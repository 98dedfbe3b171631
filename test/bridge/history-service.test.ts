/**
 * History says which service, as which client, holds each file and got each batch, and a refused file put back after
 * a switch of environment goes to the service it was refused for, never to the one active now. Two real local servers
 * over HTTP (Sandbox and Production), the bridge handlers on a real session, journal and watched folder.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../shared/bridge';
import { censusRow, csvText, md5 } from '../helpers/csv-fixtures';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe('History: the service and client of each file and batch', () => {
  let sandbox: TestServer;
  let production: TestServer;
  let engine: UiEngine;
  let watched: string;

  const sandboxView = () => ({ profile: 'sandbox', builtIn: false, address: sandbox.url, clientId: TEST_CLIENT.id });
  const productionView = () => ({ profile: 'production', builtIn: false, address: production.url, clientId: TEST_CLIENT.id });
  const finished = (name: string, outcome: JobView['outcome']) => eventually(async () => {
    const { items } = await callOk(engine, 'jobs.query', { text: name, finished: true });
    return items.find((job) => job.name === name && job.outcome === outcome);
  }, 30_000);
  const holds = (server: TestServer, checksum: string) =>
    (server.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as { n: number }).n;

  beforeAll(async () => {
    [sandbox, production] = await Promise.all([startTestServer(), startTestServer()]);
    watched = await tempDir('payroll-history-service-');
    engine = await startUiEngine({
      settings: {
        activeProfile: 'production', watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000, preflight: 'block',
        profiles: { sandbox: { baseUrl: sandbox.url }, production: { baseUrl: production.url } },
      },
      // Credentials from the environment: the keychain is never asked.
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
    });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await Promise.all([sandbox?.stop(), production?.stop()]);
  });

  it('names the service and client of an uploaded file, a refused file and each sent batch', async () => {
    await callOk(engine, 'watch.start');
    await writeFile(join(watched, 'census-good.csv'), csvText('census', [censusRow(1), censusRow(2)]));
    await writeFile(join(watched, 'census-bad.csv'), csvText('census', [censusRow(3), censusRow(4, { hireDate: '2026-02-30' })]));
    const good = await finished('census-good.csv', 'uploaded');
    const bad = await finished('census-bad.csv', 'rejected');
    expect(good.service).toEqual(productionView());
    expect(bad.service).toEqual(productionView());
    expect((await callOk(engine, 'jobs.get', { id: good.id })).service).toEqual(productionView());

    // A batch goes to the active environment; after a switch, the next one to the new one. Each says where it went.
    expect(await callOk(engine, 'batches.send', { kind: 'census', records: [censusRow(5)] })).toMatchObject({ ok: true });
    await callOk(engine, 'profile.switch', { profile: 'sandbox' });
    expect(await callOk(engine, 'batches.send', { kind: 'census', records: [censusRow(6)] })).toMatchObject({ ok: true });
    const { items: batches } = await callOk(engine, 'batches.list', {});
    expect(batches.map((batch) => batch.service)).toEqual([sandboxView(), productionView()]);
    // The journal's own names of the service are not part of the view.
    expect(batches[0]).not.toHaveProperty('baseUrl');

    // Uploaded to Production, the file still says so while the app sends to Sandbox.
    expect((await callOk(engine, 'jobs.get', { id: good.id })).service).toEqual(productionView());
  }, 90_000);

  it('puts a refused file back for the service it was refused for, whichever is active now', async () => {
    // Refused while Production was active (above); the clerk works on Sandbox now.
    const bad = await finished('census-bad.csv', 'rejected');
    await callOk(engine, 'profile.switch', { profile: 'sandbox' });
    const fixed = csvText('census', [censusRow(3), censusRow(4)]);
    await writeFile(bad.archivedPath!, fixed);
    expect(await readFile(bad.archivedPath!, 'utf8')).toBe(fixed);

    // Queued for Production again, as the same client: while Sandbox is active it waits, as the Queue says.
    const again = await callOk(engine, 'jobs.requeue', { id: bad.id });
    expect((await engine.session.queue()).job(again.id)).toMatchObject({ profile: 'production', baseUrl: production.url, clientId: TEST_CLIENT.id });
    expect(again.waitsFor).toEqual(productionView());
    expect(again.service).toEqual(productionView());

    // Back on Production it is sent there, and Sandbox never gets it.
    await callOk(engine, 'profile.switch', { profile: 'production' });
    const sent = await finished('census-bad.csv', 'uploaded');
    expect(sent.id).toBe(again.id);
    expect(sent.service).toEqual(productionView());
    expect(holds(production, md5(fixed))).toBe(1);
    expect(holds(sandbox, md5(fixed))).toBe(0);
  }, 90_000);
});
