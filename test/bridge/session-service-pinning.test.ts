/**
 * The session the desktop app and browser mode use sends each job only to the service it was queued for: switching
 * the profile (or its base URL) while a job waits leaves that job alone until the app points there again. Two real
 * local servers over HTTP, a real journal and watched folder.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../electron/core/credentials';
import { createSession, type Session } from '../../electron/core/session';
import { createSettingsStore } from '../../electron/core/settings';
import { createLogger } from '../../electron/lib/logger';
import type { Job } from '../../electron/core/queue';
import { waitsForOf } from '../../electron/core/bridge/views';
import { loggedRequests } from '../helpers/api-kit';
import { TEST_CLIENT, api, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv, md5Of } from '../helpers/queue-kit';

describe('session: uploads pinned to their service', () => {
  let a: TestServer;
  let b: TestServer;
  let session: Session;
  let watched: string;

  const uploaded = (srv: TestServer, checksum: string) =>
    (srv.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as { n: number }).n;
  // The log's rows are written a moment after each answer: flushed first, so a row still on its way is counted too.
  const grantsAsked = (srv: TestServer) => loggedRequests(srv, '/law/api/v1/payroll-submissions').length;

  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer(), startTestServer()]);
    watched = await tempDir('payroll-pinned-');
    const dataDir = await tempDir('payroll-pinned-data-');
    const settings = createSettingsStore({ cwd: dataDir });
    settings.update({
      activeProfile: 'sandbox', watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000,
      profiles: { sandbox: { baseUrl: a.url }, production: { baseUrl: b.url } },
    });
    session = createSession({
      // Credentials come from the environment: the keychain is never asked.
      dataDir, settings, secrets: new KeychainSecretStore(),
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
      logger: createLogger('test', () => undefined), retry: { baseMs: 200, maxMs: 500 },
    });
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a job waiting for sandbox is not sent to production after a switch, and goes to sandbox once back', async () => {
    const tokenA = await getToken(a.url);
    // Sandbox refuses handshakes for now: the first file waits, queued for sandbox.
    await api(a.url, tokenA, 'PUT', '/local/v1/faults', [{ pathPrefix: '/law/api/v1/payroll-submissions', errorRate: 1 }]);
    await session.watch.start();
    const first = censusCsv('pinned-first');
    await writeFile(join(watched, 'census-first.csv'), first);
    const waiting = await eventually(async () => (await session.queue()).jobs().find((j: Job) => j.name === 'census-first.csv' && j.state === 'waiting'), 30_000);
    expect(waiting).toMatchObject({ profile: 'sandbox', baseUrl: a.url });

    await session.switchProfile('production');
    await api(a.url, tokenA, 'DELETE', '/local/v1/faults');
    // A file found now goes to production; the sandbox job stays where it is, however often it is due.
    const second = censusCsv('pinned-second');
    await writeFile(join(watched, 'census-second.csv'), second);
    await eventually(() => (uploaded(b, md5Of(second)) === 1 ? true : undefined), 30_000);
    const secondJob = (await session.queue()).jobs().find((j: Job) => j.name === 'census-second.csv');
    expect(secondJob).toMatchObject({ profile: 'production', baseUrl: b.url });
    await new Promise((r) => setTimeout(r, 1500));
    expect(uploaded(b, md5Of(first))).toBe(0);
    expect(uploaded(a, md5Of(first))).toBe(0);
    const held = (await session.queue()).jobs().find((j: Job) => j.name === 'census-first.csv');
    expect(held?.archivedAt).toBeUndefined();
    expect(session.watch.state()).toMatchObject({ state: 'watching' });
    // The screens say what it waits for (and Retry now refuses with the same words).
    expect(session.uploadsGoTo()).toEqual({ profile: 'production', baseUrl: b.url, clientId: TEST_CLIENT.id });
    expect(held && waitsForOf(held, session.uploadsGoTo())).toEqual({ profile: 'sandbox', builtIn: false, address: a.url, clientId: TEST_CLIENT.id });
    expect(secondJob && waitsForOf(secondJob, session.uploadsGoTo())).toBeUndefined();

    // Back on sandbox, the waiting job is sent there, once.
    const before = grantsAsked(b);
    await session.switchProfile('sandbox');
    await eventually(() => (uploaded(a, md5Of(first)) === 1 ? true : undefined), 30_000);
    await eventually(async () => (await session.queue()).jobs().find((j: Job) => j.name === 'census-first.csv' && j.archivedAt !== undefined), 30_000);
    expect(uploaded(b, md5Of(first))).toBe(0);
    expect(grantsAsked(b)).toBe(before);
  }, 120_000);

  it('a profile without a base URL stops the watch with a reason instead of sending anywhere, until the clerk points back', async () => {
    await session.switchProfile('production');
    expect(session.watch.state()).toMatchObject({ state: 'watching' });
    const errors: string[] = [];
    const off = session.on('error', (error) => errors.push(error.message));
    await session.updateSettings({ profiles: { production: { baseUrl: undefined } } });
    off();
    expect(session.watch.state()).toMatchObject({ state: 'stopped' });
    expect(errors.join('\n')).toMatch(/No service address is set for Production: enter it in Settings \(the settings file's profiles\.production\.baseUrl\)/);
    const third = censusCsv('pinned-third');
    await writeFile(join(watched, 'census-third.csv'), third);
    await new Promise((r) => setTimeout(r, 1500));
    expect(uploaded(a, md5Of(third)) + uploaded(b, md5Of(third))).toBe(0);

    // Back to a service uploads can go to: the watch starts again by itself, and the waiting file goes there.
    await session.switchProfile('sandbox');
    expect(session.watch.state()).toMatchObject({ state: 'watching' });
    await eventually(() => (uploaded(a, md5Of(third)) === 1 ? true : undefined), 30_000);
    expect(uploaded(b, md5Of(third))).toBe(0);

    // A watch the clerk stopped stays stopped whatever the service does.
    await session.watch.stop();
    await session.updateSettings({ profiles: { production: { baseUrl: b.url } } });
    await session.switchProfile('production');
    expect(session.watch.state()).toMatchObject({ state: 'stopped' });
  }, 60_000);
});
