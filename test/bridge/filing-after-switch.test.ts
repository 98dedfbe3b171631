/**
 * A file already uploaded whose filing away is held up (here a plain file named `uploaded` stands where its folder
 * goes) is filed whatever environment is active: moving it is local work, not a request to its service. After a switch
 * the Queue does not call it waiting for its service, Retry now is not refused with that claim, and its filing goes
 * on. Two real local servers over HTTP, a real session, journal and watched folder, through the bridge handlers.
 */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethodName } from '../../shared/bridge';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv, md5Of } from '../helpers/queue-kit';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe('filing a file uploaded before a switch of environment', () => {
  let a: TestServer;
  let b: TestServer;
  let engine: UiEngine;
  let watched: string;

  const ok = <M extends BridgeMethodName>(method: M, request?: unknown) => callOk(engine, method, request);
  const jobNamed = async (name: string) => (await ok('jobs.query', { text: name })).items.find((j) => j.name === name);
  const uploaded = (srv: TestServer, checksum: string) =>
    (srv.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as { n: number }).n;

  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer(), startTestServer()]);
    watched = await tempDir('payroll-filing-switch-');
    engine = await startUiEngine({
      settings: {
        activeProfile: 'production', watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000,
        profiles: { sandbox: { baseUrl: a.url }, production: { baseUrl: b.url } },
      },
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
    });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
    await rm(watched, { recursive: true, force: true });
  });

  it('is said to be uploaded and waiting to be filed, and is filed while another environment is active', async () => {
    // Where its folder would go stands a plain file: Production takes the file, but it cannot be filed away.
    await writeFile(join(watched, 'uploaded'), 'not a folder');
    await ok('watch.start');
    const content = censusCsv('filing-after-switch');
    await writeFile(join(watched, 'census-2026-03-02.csv'), content);
    await eventually(async () => {
      const job = await jobNamed('census-2026-03-02.csv');
      return job?.outcome === 'uploaded' && job.nextAttemptAt !== undefined ? job : undefined;
    }, 30_000);
    expect(uploaded(b, md5Of(content))).toBe(1);

    await ok('profile.switch', { profile: 'sandbox' });
    const [held] = (await ok('jobs.query', { finished: false, text: 'census-2026-03-02.csv' })).items;
    // Production holds it: nothing waits for Production, only its filing is left.
    expect(held).toMatchObject({ name: 'census-2026-03-02.csv', outcome: 'uploaded', finished: false });
    expect(held?.waitsFor).toBeUndefined();
    expect((await ok('jobs.get', { id: held?.id })).waitsFor).toBeUndefined();

    // Once the way is clear, Retry now files it, with Sandbox active; nothing is sent anywhere again.
    await rm(join(watched, 'uploaded'));
    await ok('jobs.retryNow', { id: held?.id });
    const filed = await eventually(async () => {
      const job = await jobNamed('census-2026-03-02.csv');
      return job?.finished ? job : undefined;
    }, 30_000);
    expect(filed).toMatchObject({ outcome: 'uploaded' });
    expect(filed.archivedPath).toContain(join(watched, 'uploaded'));
    expect(existsSync(filed.archivedPath ?? '')).toBe(true);
    expect(uploaded(b, md5Of(content))).toBe(1);
    expect(uploaded(a, md5Of(content))).toBe(0);
  }, 60_000);
});
