/**
 * Settings saved while a batch and an upload are under way, that do not change where or how requests go (the
 * concurrency, credentials of another environment, the built-in test server started and stopped), leave them alone:
 * the batch is answered and journaled as sent, the upload is not cut off and started again. Real session, keychain,
 * watched folder and local server over HTTP, through the bridge handlers.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethodName } from '../../shared/bridge';
import { loggedRequests, setFaults } from '../helpers/api-kit';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { TEST_CLIENT, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe('a settings save while requests are under way', () => {
  let keyring: KeyringHandle;
  let server: TestServer;
  let engine: UiEngine;
  let watched: string;

  const ok = <M extends BridgeMethodName>(method: M, request?: unknown) => callOk(engine, method, request);
  /** Resolves once the server has a request of this method whose path starts so (it then takes its time to answer). */
  const arrival = (method: string, prefix: string) => new Promise<void>((resolve) => {
    const onRequest = (request: { method?: string; url?: string }) => {
      if (request.method !== method || !request.url?.startsWith(prefix)) return;
      server.app.server.off('request', onRequest);
      resolve();
    };
    server.app.server.on('request', onRequest);
  });

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    server = await startTestServer();
    watched = await tempDir('payroll-save-in-flight-');
    engine = await startUiEngine({
      settings: { activeProfile: 'sandbox', watchedFolder: watched, stabilityMs: 200, concurrency: 2, profiles: { sandbox: { baseUrl: server.url } } },
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
    });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await server?.stop();
    await keyring?.stop();
  });

  it('leaves the batch and the upload under way alone', async () => {
    // The service takes its time over batches and uploads: the saves land while both are under way.
    await setFaults(server.url, await getToken(server.url), [
      { pathPrefix: '/law/api/v1/census', latencyMs: 4000 }, { pathPrefix: '/uploads', latencyMs: 4000 },
    ]);
    await ok('watch.start');
    const putArrived = arrival('PUT', '/uploads/');
    await writeFile(join(watched, 'census-2026-03-01.csv'), csvText('census', [censusRow(1), censusRow(2)]));
    await putArrived;
    const batchArrived = arrival('POST', '/law/api/v1/census');
    const sending = ok('batches.send', { kind: 'census', records: [{ lastName: 'Silva', firstName: 'Ana', employeeRegistration: 'IF-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }] });
    await batchArrived;

    await ok('settings.patch', { concurrency: 3 });
    await ok('credentials.set', { profile: 'production', clientId: 'another-employer', clientSecret: 'another-secret-value-1' });
    await ok('localServer.start', {});
    await ok('localServer.stop');

    const { batch } = await sending;
    expect(batch).toMatchObject({ state: 'sent' });
    expect(batch?.importId).toMatch(/\S/);
    const job = await eventually(async () => (await ok('jobs.query', {})).items.find((j) => j.name === 'census-2026-03-01.csv' && j.finished), 30_000);
    expect(job).toMatchObject({ outcome: 'uploaded', attempts: 0 });
    // One PUT, answered; no request was cut off (a cut one is logged with status 0).
    expect(loggedRequests(server, '/uploads/%').map((r) => r.status)).toEqual([200]);
    expect(loggedRequests(server, '/law/api/v1/census').map((r) => r.status)).toEqual([201]);
  }, 60_000);
});
