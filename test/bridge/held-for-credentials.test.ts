/**
 * Files held because the service does not accept the client's credentials, or there are none: a problem only the
 * clerk can end, so no timer tries them again and again as if the network were slow (they were "Waiting to retry …
 * unknown client or wrong client secret. Next try at 1:22 PM. 5 tries so far." for ever, with no message above the
 * screens). They wait with no next try, a lasting notice says what to do in the app, and once the clerk saves the
 * right credentials in Settings the files go by themselves and the notice goes. A real session (ui-engine) with a real
 * keyring, watching a real folder, and a real local server over HTTP whose client's secret is changed by restarting
 * it with another clients list, as the service's administrator would.
 */
import { rm, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared';
import type { JobView, KeptNotice } from '../../shared/bridge';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

const ROTATED = 'rotated-secret-value-789';

let keyring: KeyringHandle | undefined;
let server: TestServer | undefined;
let engine: UiEngine | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  keyring = await startKeyring();
  Object.assign(process.env, keyring.env);
}, 60_000);

afterEach(async () => {
  await engine?.stop();
  await gate?.close();
  await server?.stop();
  engine = undefined;
  gate = undefined;
  server = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

afterAll(async () => {
  await keyring?.stop();
});

/**
 * A session watching a new folder (or `folder`), for the Sandbox environment at the server (or at `baseUrl`), with no
 * credentials set yet but those of `env`; on `dataDir`, kept after it stops, when given.
 */
async function watching(
  options: { env?: Record<string, string>; dataDir?: string; folder?: string; baseUrl?: string } = {},
): Promise<{ folder: string }> {
  const folder = options.folder ?? await tempDir('payroll-held-creds-watched-');
  dirs.push(folder);
  engine = await startUiEngine({
    settings: { activeProfile: 'sandbox', profiles: { sandbox: { baseUrl: options.baseUrl ?? server!.url } }, watchedFolder: folder, stabilityMs: 200, sweepIntervalMs: 1000 },
    ...(options.env ? { env: options.env } : {}), ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  return { folder };
}

/**
 * A front for the server that holds its token requests, unanswered, until `release()`: a sign-in whose answer is slow
 * to come, made deterministic. Everything else (and every token request after the release) goes straight through.
 */
type Gate = { url: string; tokenRequested: Promise<void>; release(): void; close(): Promise<void> };
async function startGate(target: string): Promise<Gate> {
  const to = new URL(target);
  let holding = true;
  const held: Array<() => void> = [];
  let requested!: () => void;
  const tokenRequested = new Promise<void>((resolve) => (requested = resolve));
  const server = createServer((req, res) => {
    const forward = (): void => {
      const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (holding && req.method === 'POST' && req.url === '/oauth/v1/access-token') {
      held.push(forward);
      requested();
      return;
    }
    forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tokenRequested,
    release() {
      holding = false;
      for (const forward of held.splice(0)) forward();
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
let gate: Gate | undefined;

const jobNamed = async (name: string): Promise<JobView | undefined> =>
  (await callOk(engine!, 'jobs.query', { text: name })).items.find((job) => job.name === name);
/** The job once it waits with no next try promised: held. */
const held = async (name: string): Promise<JobView | undefined> => {
  const job = await jobNamed(name);
  return job?.state === 'waiting' && job.nextAttemptAt === undefined ? job : undefined;
};
const uploaded = async (name: string): Promise<JobView | undefined> => {
  const job = await jobNamed(name);
  return job?.outcome === 'uploaded' ? job : undefined;
};
const notices = async (): Promise<KeptNotice[]> => (await callOk(engine!, 'notices.list')).items;

describe('files held for credentials the service does not accept', () => {
  it('holds them with words for the clerk after the secret changed at the service, and sends them once the new one is saved', async () => {
    const serverDir = await tempDir('payroll-held-creds-server-');
    dirs.push(serverDir);
    server = await startTestServer({ dataDir: serverDir });
    const port = Number(new URL(server.url).port);
    const { folder } = await watching();
    await callOk(engine!, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
    await callOk(engine!, 'watch.start');
    // It works: the app holds a token of these credentials.
    await writeFile(join(folder, 'census-before.csv'), censusCsv('held-creds-before'));
    await eventually(() => uploaded('census-before.csv'), 60_000);

    // The service's administrator gives the client a new secret: the app's token and secret are no good any more.
    await server.stop();
    server = await startTestServer({ dataDir: serverDir, port, clients: [{ id: TEST_CLIENT.id, secret: ROTATED, scopes: [...SCOPES] }] });
    await writeFile(join(folder, 'census-after.csv'), censusCsv('held-creds-after'));

    // Held: no next try promised (none comes by itself), in words that say what to do in the app.
    const job = await eventually(() => held('census-after.csv'), 60_000);
    expect(job.resumeState).toBe('granting');
    expect(job.lastError).toMatch(/^The service did not accept the client ID test-client and its secret \(it said: unknown client or wrong client secret\)\. No file is uploaded until they are right: open Settings, type the client ID and secret your service provider gave you, save them and test the connection; the files waiting then go on their own\./);
    // The command line keeps its own way, named after the app's.
    expect(job.lastError).toContain('On the command line, run `payroll-uploader credentials set --env sandbox`');
    // Not the request the app made.
    expect(job.lastError).not.toMatch(/POST|\/oauth|\/law\/api/);
    // A message above the screens says it, until the service accepts the credentials again.
    const notice = (await notices()).find((n) => n.message === job.lastError);
    expect(notice).toMatchObject({ level: 'error', until: 'credentials-accepted' });

    // The clerk saves the new secret in Settings: the file goes by itself (no Retry now), and the message goes.
    await callOk(engine!, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: ROTATED });
    await eventually(() => uploaded('census-after.csv'), 60_000);
    await eventually(async () => ((await notices()).some((n) => n.until === 'credentials-accepted') ? undefined : true), 20_000);
  }, 180_000);

  it('holds them while no credentials are set, and sends them once they are', async () => {
    server = await startTestServer();
    const { folder } = await watching();
    await callOk(engine!, 'watch.start');
    await writeFile(join(folder, 'census-nocreds.csv'), censusCsv('held-creds-none'));

    const job = await eventually(() => held('census-nocreds.csv'), 60_000);
    expect(job.lastError).toMatch(/^No client id is set for the sandbox profile\. No file is uploaded until a client ID and secret are set: open Settings, type the client ID and secret your service provider gave you/);
    expect(job.lastError).toContain('`payroll-uploader credentials set --env sandbox`');
    expect((await notices()).find((n) => n.message === job.lastError)).toMatchObject({ level: 'error', until: 'credentials-accepted' });

    await callOk(engine!, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
    await eventually(() => uploaded('census-nocreds.csv'), 60_000);
    await eventually(async () => ((await notices()).some((n) => n.until === 'credentials-accepted') ? undefined : true), 20_000);
  }, 180_000);
  it('names the environment variables, not Settings, when the credentials they give are refused, and goes once the app starts without them', async () => {
    server = await startTestServer();
    const dataDir = await tempDir('payroll-held-creds-env-data-');
    const folder = await tempDir('payroll-held-creds-env-watched-');
    dirs.push(dataDir);
    // PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET win over what is saved in Settings: here with a wrong secret.
    await watching({ dataDir, folder, env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: 'not-the-secret-000' } });
    await callOk(engine!, 'watch.start');
    await writeFile(join(folder, 'census-env.csv'), censusCsv('held-creds-env'));

    const job = await eventually(() => held('census-env.csv'), 60_000);
    // Saved in Settings, the right ones would change nothing (the variables win), and the files would be held again
    // with the same words: the words name the variables, and that the app is started again.
    expect(job.lastError).toBe('The service did not accept the client ID test-client and its secret from the environment variables '
      + 'PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET (it said: unknown client or wrong client secret). No file is uploaded until they are right: '
      + 'set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET to the client ID and secret your service provider gave you, or remove both so that '
      + 'the ones saved in Settings (or by `payroll-uploader credentials set --env sandbox`) are used, then start the app or the uploader '
      + 'again: while either variable is set, what is saved in Settings is not used');
    expect((await notices()).find((n) => n.message === job.lastError)).toMatchObject({ level: 'error', until: 'credentials-accepted' });
    // The connection test of Settings tests them too, and says the same.
    const test = await callOk(engine!, 'credentials.test', { profile: 'sandbox' });
    expect(test).toMatchObject({ ok: false });
    expect(test.message).toMatch(/^The service did not accept the client ID test-client and its secret from the environment variables PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET \(it said: [^)]*\)\. To change them, set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET to/);
    expect(test.message).not.toMatch(/type them again/);

    // The clerk saves the right ones and the app is started again without the variables: the saved ones are used.
    await callOk(engine!, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
    await engine!.stop();
    engine = undefined;
    await watching({ dataDir, folder });
    await callOk(engine!, 'watch.start');
    await eventually(() => uploaded('census-env.csv'), 60_000);
  }, 180_000);

  it('sends a file by itself when the right secret is saved while its sign-in with the old one awaits the refusal', async () => {
    server = await startTestServer();
    gate = await startGate(server.url);
    const { folder } = await watching({ baseUrl: gate.url });
    await callOk(engine!, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: 'old-secret-000' });
    await callOk(engine!, 'watch.start');
    await writeFile(join(folder, 'census-race.csv'), censusCsv('held-creds-race'));

    // The handshake's token request, made with the old secret, is held at the gate: no answer yet, the file is not
    // held (it is in its handshake), so saving the new secret frees nothing.
    await gate.tokenRequested;
    await callOk(engine!, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
    // Then the service's refusal of the old secret arrives.
    gate.release();

    // The new credentials decide: the file is asked for again with them and uploaded, never held for the old ones.
    const settled = await eventually(async () => (await uploaded('census-race.csv')) ?? (await held('census-race.csv')), 60_000);
    expect(settled.lastError ?? null).toBeNull();
    expect(settled.outcome).toBe('uploaded');
    expect((await notices()).some((n) => n.until === 'credentials-accepted')).toBe(false);
  }, 180_000);
});
