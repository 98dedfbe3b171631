/**
 * A job is sent only as the client (the employer's account at the service) it was queued as: when the client id
 * changes behind the app's back (the command line sets other credentials while the app runs), a waiting job is not
 * sent as the new client; it waits, says for which client, and goes once its client is back. One real local server
 * with two clients over HTTP, a real journal and watched folder.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared';
import { TOKEN_RENEW_MARGIN_MS } from '../../electron/core/api';
import { KeychainSecretStore } from '../../electron/core/credentials';
import { waitingElsewhere, waitsForOf } from '../../electron/core/bridge/views';
import type { Job } from '../../electron/core/queue';
import { createSession, type Session } from '../../electron/core/session';
import { createSettingsStore } from '../../electron/core/settings';
import { createLogger } from '../../electron/lib/logger';
import { TEST_CLIENT, api, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv, md5Of } from '../helpers/queue-kit';

const OTHER = { id: 'other-employer', secret: 'other-secret-value-456' };

describe('session: uploads pinned to their client', () => {
  let server: TestServer;
  let session: Session;
  let watched: string;
  // The environment the session reads credentials from, changed by the test as another process would change them.
  const env: Record<string, string | undefined> = { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret };
  const useClient = (client: { id: string; secret: string }) => {
    env.PAYROLL_CLIENT_ID = client.id;
    env.PAYROLL_CLIENT_SECRET = client.secret;
  };

  /** Which clients hold an uploaded file with this checksum at the server. */
  const holders = (checksum: string) =>
    (server.ctx.db.prepare("SELECT client_id FROM files WHERE checksum = ? AND status = 'UPLOADED' ORDER BY client_id").all(checksum) as
      { client_id: string }[]).map((r) => r.client_id);
  const jobNamed = async (name: string) => (await session.queue()).jobs().find((j: Job) => j.name === name);

  beforeAll(async () => {
    // Tokens that outlive nothing: every request asks for a new one, as a long run does once its token expires
    // (a cached token of the first client would otherwise hide which credentials are read). A token due for renewal
    // when it is issued does that; one that could expire before its request is read (a 1 s token issued late in its
    // second) would be refused, renewed and refused again on a loaded machine, and its file held for its credentials.
    server = await startTestServer({ tokenTtlSeconds: TOKEN_RENEW_MARGIN_MS / 1000, clients: [{ ...TEST_CLIENT, scopes: [...SCOPES] }, { ...OTHER, scopes: [...SCOPES] }] });
    watched = await tempDir('payroll-client-pinned-');
    const dataDir = await tempDir('payroll-client-pinned-data-');
    const settings = createSettingsStore({ cwd: dataDir });
    settings.update({ activeProfile: 'sandbox', watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000, profiles: { sandbox: { baseUrl: server.url } } });
    session = createSession({
      dataDir, settings, secrets: new KeychainSecretStore(), env, recheckMs: 200,
      logger: createLogger('test', () => undefined), retry: { baseMs: 200, maxMs: 500 },
    });
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('a job queued as one client is not sent as another after the client id changed, and goes once its client is back', async () => {
    // The first client's handshakes fail for now (fault rules touch only the client that set them): its file waits.
    const token = await getToken(server.url);
    await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/law/api/v1/payroll-submissions', errorRate: 1 }]);
    await session.watch.start();
    const first = censusCsv('client-pinned-first');
    await writeFile(join(watched, 'census-first.csv'), first);
    const waiting = await eventually(async () => {
      const job = await jobNamed('census-first.csv');
      return job?.state === 'waiting' ? job : undefined;
    }, 30_000);
    expect(waiting).toMatchObject({ profile: 'sandbox', baseUrl: server.url, clientId: TEST_CLIENT.id });

    // Other credentials, set behind the session's back; the handshake would now succeed for either client.
    useClient(OTHER);
    await api(server.url, await getToken(server.url), 'DELETE', '/local/v1/faults');
    await eventually(() => (session.uploadsGoTo()?.clientId === OTHER.id ? true : undefined), 10_000);
    expect(session.uploadsGoTo()).toEqual({ profile: 'sandbox', baseUrl: server.url, clientId: OTHER.id });

    // A file found now goes as the new client; the first one stays where it is, however often it would be due.
    const second = censusCsv('client-pinned-second');
    await writeFile(join(watched, 'census-second.csv'), second);
    await eventually(() => (holders(md5Of(second)).length === 1 ? true : undefined), 30_000);
    expect(holders(md5Of(second))).toEqual([OTHER.id]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(holders(md5Of(first))).toEqual([]);
    const held = await jobNamed('census-first.csv');
    expect(held?.archivedAt).toBeUndefined();
    // The screens say which client it waits for (and Retry now refuses with the same words).
    const waitsFor = held && waitsForOf(held, session.uploadsGoTo());
    expect(waitsFor).toEqual({ profile: 'sandbox', builtIn: false, address: server.url, clientId: TEST_CLIENT.id });
    expect(waitsFor && waitingElsewhere('census-first.csv', waitsFor)).toMatch(/as client test-client and is sent only there, as that client/);

    // Its own client back: it is sent, once, as that client.
    useClient(TEST_CLIENT);
    await eventually(() => (holders(md5Of(first)).length === 1 ? true : undefined), 30_000);
    expect(holders(md5Of(first))).toEqual([TEST_CLIENT.id]);
    await eventually(async () => ((await jobNamed('census-first.csv'))?.archivedAt !== undefined ? true : undefined), 30_000);
    expect(holders(md5Of(second))).toEqual([OTHER.id]);
  }, 120_000);
});
