/**
 * The session the desktop app and browser mode use, when its data folder is removed while it uploads: it says so
 * (an "Uploads stopped" error, which the screens show until the folder is watched again), stops uploading and stops
 * watching, so nothing more is claimed or written for a journal that is gone. A real server, journal and folder.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../electron/core/credentials';
import { UploadsStoppedError, createSession, type Session } from '../../electron/core/session';
import { createSettingsStore } from '../../electron/core/settings';
import { createLogger } from '../../electron/lib/logger';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';

let server: TestServer;
let session: Session;
let dataDir: string;
let watched: string;

beforeAll(async () => {
  server = await startTestServer();
  watched = await tempDir('payroll-removed-');
  dataDir = await tempDir('payroll-removed-data-');
  const settings = createSettingsStore({ cwd: dataDir });
  settings.update({ activeProfile: 'sandbox', watchedFolder: watched, stabilityMs: 200, profiles: { sandbox: { baseUrl: server.url } } });
  session = createSession({
    dataDir, settings, secrets: new KeychainSecretStore(),
    env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
    logger: createLogger('test', () => undefined),
  });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await server?.stop();
});

it('stops uploads and says why when its data folder is removed', async () => {
  const errors: Error[] = [];
  session.on('error', (error) => errors.push(error));
  const states: string[] = [];
  session.on('folder', ({ state }) => states.push(state));
  await session.watch.start();
  await eventually(() => (states.includes('watching') ? true : undefined), 20_000);
  await rm(dataDir, { recursive: true, force: true });
  const stopped = await eventually(() => errors.find((e) => e instanceof UploadsStoppedError), 20_000);
  expect(stopped.message).toContain(`Uploads stopped: the data folder ${dataDir} was removed while the uploader ran`);
  await eventually(() => (states.at(-1) !== 'watching' ? true : undefined), 20_000);
}, 60_000);
