/**
 * The watched folder's state says while every file is held for the client's credentials or its scope to upload files
 * (`held`), in `watch.state` and in the `folder` event both bridges relay: the Queue's header reads it, so it must not
 * end when the clerk dismisses the notice that told of it, only when the service grants an upload address again. A
 * real session (ui-engine) with a real keyring, watching a real folder, and a real local server over HTTP, restarted
 * with another secret or without the client's upload scope, as the service's administrator would.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../shared';
import type { BridgeEventMessage, FolderState, JobView } from '../../shared/bridge';
import { relayEvents } from '../../electron/core/bridge';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

const ROTATED = 'rotated-secret-value-456';
const WITHOUT_UPLOADS = SCOPES.filter((scope) => scope !== 'submissions:write');

let keyring: KeyringHandle | undefined;
let server: TestServer | undefined;
let engine: UiEngine | undefined;
let stopRelay: (() => void) | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  keyring = await startKeyring();
  Object.assign(process.env, keyring.env);
}, 60_000);

afterEach(async () => {
  stopRelay?.();
  await engine?.stop();
  await server?.stop();
  stopRelay = undefined;
  engine = undefined;
  server = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

afterAll(async () => {
  await keyring?.stop();
});

/**
 * A server (its data folder kept, so it can be restarted on its port) with the test client as `client` says, and a
 * session watching a new folder for the Sandbox environment at it with the test client's own credentials; the
 * `folder` events the bridges relay are kept in `said`.
 */
async function setUp(client: { secret: string; scopes: Scope[] }): Promise<{ folder: string; serverDir: string; said: FolderState[] }> {
  const serverDir = await tempDir('payroll-held-state-server-');
  const folder = await tempDir('payroll-held-state-watched-');
  dirs.push(serverDir, folder);
  server = await startTestServer({ dataDir: serverDir, clients: [{ id: TEST_CLIENT.id, ...client }] });
  engine = await startUiEngine({
    settings: { activeProfile: 'sandbox', profiles: { sandbox: { baseUrl: server.url } }, watchedFolder: folder, stabilityMs: 200, sweepIntervalMs: 1000 },
  });
  const said: FolderState[] = [];
  stopRelay = relayEvents(engine.session, (message: BridgeEventMessage) => {
    if (message.event === 'folder') said.push(message.payload);
  });
  await callOk(engine, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
  await callOk(engine, 'watch.start');
  return { folder, serverDir, said };
}

const jobNamed = async (name: string): Promise<JobView | undefined> =>
  (await callOk(engine!, 'jobs.query', { text: name })).items.find((job) => job.name === name);
const uploaded = async (name: string): Promise<JobView | undefined> => {
  const job = await jobNamed(name);
  return job?.outcome === 'uploaded' ? job : undefined;
};
const folderState = () => callOk(engine!, 'watch.state');
const heldState = async (): Promise<FolderState | undefined> => {
  const state = await folderState();
  return state.held ? state : undefined;
};

/** Dismisses the core's notice that ends with `until`, as the clerk's Dismiss does. */
async function dismissNotice(until: 'credentials-accepted' | 'scope-given'): Promise<void> {
  const list = await callOk(engine!, 'notices.list');
  const notice = list.items.find((n) => n.until === until);
  expect(notice, `a notice until ${until}`).toBeDefined();
  expect(await callOk(engine!, 'notices.dismiss', { run: list.run, id: notice!.id })).toEqual({ dismissed: 1 });
  expect((await callOk(engine!, 'notices.list')).items.some((n) => n.until === until)).toBe(false);
}

describe('the watched folder state while every file is held', () => {
  it('says the files are held for the credentials the service refuses, after the notice is dismissed too, until the right ones are saved', async () => {
    // The service's administrator gave the client another secret: the one the app has is refused.
    const { folder, said } = await setUp({ secret: ROTATED, scopes: [...SCOPES] });
    expect(await folderState()).toEqual({ folder, state: 'watching' });
    await writeFile(join(folder, 'census-creds.csv'), censusCsv('held-state-creds'));

    expect(await eventually(heldState, 60_000)).toEqual({ folder, state: 'watching', held: 'credentials' });
    // Said as it happened, to every window: the event both bridges relay.
    await eventually(() => said.find((state) => state.held === 'credentials'), 10_000);
    await dismissNotice('credentials-accepted');
    expect(await folderState()).toEqual({ folder, state: 'watching', held: 'credentials' });
    // Paused, the files are still held.
    expect(await callOk(engine!, 'watch.pause')).toEqual({ folder, state: 'paused', held: 'credentials' });
    expect(await callOk(engine!, 'watch.resume')).toEqual({ folder, state: 'watching', held: 'credentials' });

    // The clerk saves the new secret: the file goes, and the state no longer says the files are held.
    const before = said.length;
    await callOk(engine!, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: ROTATED });
    await eventually(() => uploaded('census-creds.csv'), 60_000);
    await eventually(async () => ((await folderState()).held ? undefined : true), 20_000);
    expect(await folderState()).toEqual({ folder, state: 'watching' });
    await eventually(() => said.slice(before).find((state) => state.state === 'watching' && state.held === undefined), 10_000);
  }, 180_000);

  it('says the files are held for the scope the client lacks, after the notice is dismissed too, until a handshake goes through', async () => {
    const { folder, serverDir, said } = await setUp({ secret: TEST_CLIENT.secret, scopes: WITHOUT_UPLOADS });
    await writeFile(join(folder, 'census-scope.csv'), censusCsv('held-state-scope'));

    expect(await eventually(heldState, 60_000)).toEqual({ folder, state: 'watching', held: 'scope' });
    await eventually(() => said.find((state) => state.held === 'scope'), 10_000);
    await dismissNotice('scope-given');
    expect(await folderState()).toEqual({ folder, state: 'watching', held: 'scope' });

    // The administrator gives the client the scope; the clerk presses Retry now on the held file.
    const port = Number(new URL(server!.url).port);
    await server!.stop();
    server = await startTestServer({ dataDir: serverDir, port, clients: [{ ...TEST_CLIENT, scopes: [...SCOPES] }] });
    const job = await jobNamed('census-scope.csv');
    await callOk(engine!, 'jobs.retryNow', { id: job!.id });
    await eventually(() => uploaded('census-scope.csv'), 60_000);
    await eventually(async () => ((await folderState()).held ? undefined : true), 20_000);
    expect(await folderState()).toEqual({ folder, state: 'watching' });
  }, 180_000);
});
