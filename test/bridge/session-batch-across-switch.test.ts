/**
 * A manual JSON batch being sent when the service changes (the clerk switches environments or edits the address, the
 * command line sets another client id) is not cut off: the pipeline it went through waits for it before it closes,
 * and its outcome (the import id) is journaled for the service and client it was sent to. Only a crash leaves a batch
 * "outcome unknown". Real local servers over HTTP, a real journal and watched folder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared';
import { KeychainSecretStore } from '../../electron/core/credentials';
import { createSession, type Session, type SessionOptions } from '../../electron/core/session';
import { createSettingsStore } from '../../electron/core/settings';
import { createLogger } from '../../electron/lib/logger';
import type { SettingsInput } from '../../shared/settings.schema';
import { setFaults } from '../helpers/api-kit';
import { TEST_CLIENT, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';

const OTHER = { id: 'other-employer', secret: 'other-secret-value-456' };
const hire = (registration: string) => [{ lastName: 'Silva', firstName: 'Ana', employeeRegistration: registration, hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }];

/** The JSON imports a server holds, by client. */
const importsAt = (srv: TestServer) =>
  srv.ctx.db.prepare("SELECT id, client_id AS clientId FROM imports WHERE source = 'json' ORDER BY seq").all() as { id: string; clientId: string }[];

describe('a manual batch in flight when the service changes', () => {
  const running: { stop(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const part of running.splice(0).reverse()) await part.stop();
  });

  const server = async (): Promise<TestServer> => {
    const srv = await startTestServer({ clients: [{ ...TEST_CLIENT, scopes: [...SCOPES] }, { ...OTHER, scopes: [...SCOPES] }] });
    running.push(srv);
    // The service takes its time over a census batch: the change lands while it is being sent.
    await setFaults(srv.url, await getToken(srv.url), [{ pathPrefix: '/law/api/v1/census', latencyMs: 1500 }]);
    return srv;
  };
  const session = async (settings: SettingsInput, options: Partial<SessionOptions> = {}): Promise<Session> => {
    const dataDir = await tempDir('payroll-batch-switch-');
    const store = createSettingsStore({ cwd: dataDir });
    store.update(settings);
    const made = createSession({
      dataDir, settings: store, secrets: new KeychainSecretStore(), recheckMs: 100,
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
      logger: createLogger('test', () => undefined), retry: { baseMs: 200, maxMs: 500 }, ...options,
    });
    running.push({ stop: () => made.close() });
    return made;
  };
  /** Sends a batch; resolves once the server has its request (and takes its time to answer it). */
  const startBatch = async (s: Session, at: TestServer, registration: string) => {
    const arrived = new Promise<void>((resolve) => {
      const onRequest = (request: { url?: string }) => {
        if (!request.url?.startsWith('/law/api/v1/census')) return;
        at.app.server.off('request', onRequest);
        resolve();
      };
      at.app.server.on('request', onRequest);
    });
    const result = s.sendBatch('census', hire(registration));
    await arrived;
    return { result };
  };

  it('a switch to another environment waits for it, and it is journaled as sent, with the import id of where it went', async () => {
    const [a, b] = await Promise.all([server(), server()]);
    const watched = await tempDir('payroll-batch-switch-watched-');
    const s = await session({
      activeProfile: 'sandbox', watchedFolder: watched, stabilityMs: 200,
      profiles: { sandbox: { baseUrl: a.url }, production: { baseUrl: b.url } },
    });
    await s.watch.start();
    const warnings: string[] = [];
    s.on('warning', (message) => warnings.push(typeof message === 'string' ? message : message.message));

    const { result } = await startBatch(s, a, 'SW-1');
    await s.switchProfile('production');
    const { batch, created } = await result;
    expect(batch).toMatchObject({ state: 'sent', importId: importsAt(a)[0]?.id });
    expect(created?.id).toBe(importsAt(a)[0]?.id);
    expect(importsAt(b)).toEqual([]);
    // The journal of the pipeline now open says the same; nothing says the app stopped mid-send.
    expect((await s.queue()).batches().find((one) => one.id === batch.id)).toMatchObject({ state: 'sent', importId: created?.id });
    expect(warnings.join('\n')).not.toMatch(/outcome unknown/);
    expect(s.uploadsGoTo()).toMatchObject({ profile: 'production', baseUrl: b.url });
    expect(s.watch.state()).toMatchObject({ state: 'watching' });

    // The address of the active environment edited while one is sent: it still ends where it was sent.
    await s.switchProfile('sandbox');
    const second = await startBatch(s, a, 'SW-2');
    await s.updateSettings({ profiles: { sandbox: { baseUrl: b.url } } });
    const edited = await second.result;
    expect(edited.batch).toMatchObject({ state: 'sent', importId: importsAt(a)[1]?.id });
    expect(importsAt(b)).toEqual([]);
  }, 60_000);

  it('`send` (no files) whose client id is changed by another process ends as sent, as the client it went as', async () => {
    const a = await server();
    // The environment the credentials are read from, changed as another terminal's `credentials set` would change them.
    const env: Record<string, string | undefined> = { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret };
    const s = await session({ activeProfile: 'sandbox', profiles: { sandbox: { baseUrl: a.url } } }, { files: false, env });

    const { result } = await startBatch(s, a, 'CL-1');
    env.PAYROLL_CLIENT_ID = OTHER.id;
    env.PAYROLL_CLIENT_SECRET = OTHER.secret;
    // The session's recheck follows the new client while the batch is still being answered.
    await eventually(() => (s.uploadsGoTo()?.clientId === OTHER.id ? true : undefined), 10_000);
    const { batch, created } = await result;
    expect(batch).toMatchObject({ state: 'sent', importId: created?.id });
    expect(importsAt(a)).toEqual([{ id: created?.id, clientId: TEST_CLIENT.id }]);
    expect((await s.queue()).batches().find((one) => one.id === batch.id)).toMatchObject({ state: 'sent', importId: created?.id });
  }, 60_000);
});
