/**
 * The screens keep asking for jobs while the clerk switches environments: a call that lands while the old service's
 * pipeline is closing waits for the new one, instead of opening a second one beside it, which the data folder's lock
 * (held by the closing one, in this same process) refused, leaving uploads stopped and blaming "another uploader".
 * Two real local servers over HTTP, a real journal and watched folder.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../electron/core/credentials';
import { createSession, type Session } from '../../electron/core/session';
import { createSettingsStore } from '../../electron/core/settings';
import { createLogger } from '../../electron/lib/logger';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv, md5Of } from '../helpers/queue-kit';

describe('session: calls during a switch of service', () => {
  let a: TestServer;
  let b: TestServer;
  let session: Session;
  let watched: string;

  const uploaded = (srv: TestServer, checksum: string) =>
    (srv.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as { n: number }).n;

  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer(), startTestServer()]);
    watched = await tempDir('payroll-switch-calls-');
    const dataDir = await tempDir('payroll-switch-calls-data-');
    const settings = createSettingsStore({ cwd: dataDir });
    settings.update({
      activeProfile: 'sandbox', watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000,
      profiles: { sandbox: { baseUrl: a.url }, production: { baseUrl: b.url } },
    });
    session = createSession({
      dataDir, settings, secrets: new KeychainSecretStore(),
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
      logger: createLogger('test', () => undefined), retry: { baseMs: 200, maxMs: 500 },
    });
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a call landing while the old pipeline closes waits for the new one; the watch goes on', async () => {
    await session.watch.start();
    const refused: string[] = [];
    session.on('error', (error) => refused.push(error.message));
    // As the Queue screen does: asks again and again, each time the event loop comes round.
    let asking = true;
    const asked = (async () => {
      while (asking) {
        await session.queue().then((queue) => queue.jobs(20)).catch((error: unknown) => refused.push(String(error)));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (const to of ['production', 'sandbox', 'production', 'sandbox', 'production'] as const) {
      await session.switchProfile(to);
      expect(session.watch.state()).toMatchObject({ state: 'watching' });
    }
    asking = false;
    await asked;
    expect(refused).toEqual([]);
    expect((await session.queue()).jobs(1)).toBeDefined();

    // Files found now go to the service switched to.
    const late = censusCsv('switch-calls-late');
    await writeFile(join(watched, 'census-late.csv'), late);
    await eventually(() => (uploaded(b, md5Of(late)) === 1 ? true : undefined), 30_000);
    expect(uploaded(a, md5Of(late))).toBe(0);
  }, 60_000);
});
