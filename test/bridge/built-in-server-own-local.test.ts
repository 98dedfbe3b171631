/**
 * Starting the app's own local test server points the Local environment at it; the clerk's own Local settings (an
 * address and client id of their own, say a standalone `payroll-uploader server`) come back when it stops, also after
 * the app was closed while it ran, and new files then go to the clerk's server again. Real session, keychain,
 * watched folder, the embedded server and a second real server over HTTP, through the bridge handlers.
 */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethodName } from '../../shared/bridge';
import { APP_LOCAL_CLIENT_ID, LOCAL_SERVER_DIR, REPLACED_LOCAL_FILE } from '../../electron/core/session/local-server-part';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv, md5Of } from '../helpers/queue-kit';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe("the built-in local test server and the clerk's own Local settings", () => {
  let keyring: KeyringHandle;
  let own: TestServer;
  let watched: string;
  let dataDir: string;
  const engines: UiEngine[] = [];

  const start = async () => {
    const engine = await startUiEngine({ dataDir, settings: { stabilityMs: 200, sweepIntervalMs: 1000 } });
    engines.push(engine);
    return engine;
  };
  const ok = <M extends BridgeMethodName>(engine: UiEngine, method: M, request?: unknown) => callOk(engine, method, request);
  const local = (engine: UiEngine) => engine.session.settings().profiles.local;
  const uploadedAtOwn = (checksum: string) =>
    (own.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as { n: number }).n;

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    own = await startTestServer();
    watched = await tempDir('payroll-own-local-');
    dataDir = await tempDir('payroll-own-local-data-');
  }, 60_000);

  afterAll(async () => {
    for (const engine of engines) await engine.stop().catch(() => undefined);
    await own?.stop();
    await keyring?.stop();
    await rm(watched, { recursive: true, force: true });
  });

  it('puts the clerk\'s own Local address and client back when it stops, and files go there again', async () => {
    const engine = await start();
    await ok(engine, 'settings.patch', { profiles: { local: { baseUrl: own.url } } });
    await ok(engine, 'credentials.set', { profile: 'local', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
    expect(local(engine)).toEqual({ baseUrl: own.url, clientId: TEST_CLIENT.id });

    const { url } = await ok(engine, 'localServer.start', {});
    expect(local(engine)).toEqual({ baseUrl: url, clientId: APP_LOCAL_CLIENT_ID });
    const notices: string[] = [];
    engine.session.on('warning', (message) => notices.push(typeof message === 'string' ? message : message.message));
    await ok(engine, 'localServer.stop');
    expect(local(engine)).toEqual({ baseUrl: own.url, clientId: TEST_CLIENT.id });
    expect(notices.join('\n')).toContain(`The Local test server environment uses your own settings again: ${own.url}, client ID ${TEST_CLIENT.id}`);
    expect(existsSync(join(dataDir, LOCAL_SERVER_DIR, REPLACED_LOCAL_FILE))).toBe(false);

    // Uploads follow: a file found now goes to the clerk's own server, as their client.
    await ok(engine, 'watch.setFolder', { folder: watched });
    await ok(engine, 'watch.start');
    const content = censusCsv('own-local');
    await writeFile(join(watched, 'census-own.csv'), content);
    await eventually(() => (uploadedAtOwn(md5Of(content)) === 1 ? true : undefined), 30_000);
    await ok(engine, 'watch.stop');
  }, 90_000);

  it('puts them back when the app closes while the server runs, and leaves Local alone when the clerk changed it meanwhile', async () => {
    const first = engines[0] as UiEngine;
    await ok(first, 'localServer.start', {});
    expect(local(first).clientId).toBe(APP_LOCAL_CLIENT_ID);
    // The app closes (its server stops with it): the clerk's settings are back at once.
    await first.stop();
    const again = await start();
    expect(local(again)).toEqual({ baseUrl: own.url, clientId: TEST_CLIENT.id });

    // Settings the clerk changes while the server runs are theirs: a stop leaves them alone.
    await ok(again, 'localServer.start', {});
    await ok(again, 'settings.patch', { profiles: { local: { baseUrl: 'http://127.0.0.1:9999' } } });
    await ok(again, 'localServer.stop');
    expect(local(again).baseUrl).toBe('http://127.0.0.1:9999');
  }, 90_000);
});
