/**
 * The disk under the journal fills while a file's upload is out (a real 2 MB tmpfs under the app's data folder, a real
 * session watching a real folder, a real local server holding the upload's answer back). Before, every open window got
 * about 2,000 notice events a second ("census.csv: database or disk is full", in SQLite's words) until space returned.
 * Now it gets one notice that names the data folder's disk as full and what to do, and, once space returns, that it is
 * over; the file is uploaded once.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KeptNotice, NoticesGone } from '../../shared/bridge';
import { setFaults } from '../helpers/api-kit';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { TEST_CLIENT, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { readSse, type SseReader } from '../helpers/sse';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

const run = promisify(execFile);
let keyring: KeyringHandle | undefined;
let server: TestServer | undefined;
let engine: UiEngine | undefined;
let stream: SseReader | undefined;
let mountPoint: string | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  keyring = await startKeyring();
  Object.assign(process.env, keyring.env);
  server = await startTestServer();
  mountPoint = await tempDir('payroll-full-upload-disk-');
  await run('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
}, 60_000);

afterAll(async () => {
  stream?.close();
  await engine?.stop();
  if (mountPoint) await run('umount', ['-l', mountPoint]);
  await server?.stop();
  await keyring?.stop();
  for (const dir of [...dirs, ...(mountPoint ? [mountPoint] : [])]) await rm(dir, { recursive: true, force: true });
});

it('tells the windows once that uploads wait for a full data disk, not at every try, and that it is over', async () => {
  const watched = await tempDir('payroll-full-upload-watched-');
  dirs.push(watched);
  const dataDir = join(mountPoint!, 'data');
  await mkdir(dataDir);
  engine = await startUiEngine({
    dataDir,
    settings: { activeProfile: 'sandbox', profiles: { sandbox: { baseUrl: server!.url } }, watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000 },
    env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
  });
  stream = await readSse(`${engine.server.origin}/bridge/events`, { authorization: `Bearer ${engine.server.token}` });
  await callOk(engine, 'watch.start');
  const token = await getToken(server!.url);
  // The upload's answer comes back only once the disk is full.
  await setFaults(server!.url, token, [{ pathPrefix: '/uploads/', latencyMs: 3_000 }]);
  await writeFile(join(watched, 'census-full-put.csv'), censusCsv('full-put'));
  await eventually(async () => (await callOk(engine!, 'jobs.query', { text: 'census-full-put' })).items.find((j) => j.state === 'uploading'), 60_000);
  await run('sh', ['-c', `dd if=/dev/zero of=${join(mountPoint!, 'filler')} bs=4k 2>/dev/null || true`]);

  const notices = () => stream!.messages.filter((m) => m.event === 'notice').map((m) => JSON.parse(m.data) as KeptNotice);
  const said = await eventually(() => notices().find((n) => /census-full-put\.csv/.test(n.message)), 60_000);
  expect(said).toMatchObject({ level: 'error', until: 'journal-written' });
  expect(said.message).toMatch(/the disk that holds the data folder .* is full .*; free some space on it/);
  // The queue tries again and again meanwhile: the windows hear nothing more of it.
  await sleep(4_000);
  const after = stream.messages.slice(stream.messages.findIndex((m) => m.event === 'notice' && (JSON.parse(m.data) as KeptNotice).id === said.id));
  expect(after.filter((m) => m.event === 'notice' || m.event === 'noticesGone')).toHaveLength(1);

  await rm(join(mountPoint!, 'filler'));
  await setFaults(server!.url, token, []);
  await eventually(async () => (await callOk(engine!, 'jobs.query', { text: 'census-full-put' })).items.find((j) => j.outcome === 'uploaded'), 60_000);
  // Over: gone from every window.
  await eventually(() => stream!.messages.filter((m) => m.event === 'noticesGone').map((m) => JSON.parse(m.data) as NoticesGone)
    .find((g) => g.ids.includes(said.id)), 30_000);
  expect(notices().filter((n) => /census-full-put\.csv/.test(n.message) && n.level === 'error')).toEqual([said]);
}, 180_000);
