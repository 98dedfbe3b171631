/**
 * A notice of a problem that lasts goes by itself once the problem is over, in every window: here the upload journal
 * on a real full disk (a 2 MB tmpfs under the app's data folder), on a real session watching a real folder and
 * uploading to a real local server. Before, "new files cannot be taken up for now: … the disk … is full" stayed beside
 * "the upload journal can be written again" until the clerk dismissed it.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KeptNotice, NoticesGone } from '../../shared/bridge';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
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
  mountPoint = await tempDir('payroll-notices-disk-');
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

it('takes the full-disk notice away once the journal is written again, for every window', async () => {
  const watched = await tempDir('payroll-notices-watched-');
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
  const notices = async (): Promise<KeptNotice[]> => (await callOk(engine!, 'notices.list')).items;
  const full = async () => (await notices()).find((n) => /cannot be taken up for now/.test(n.message));

  await writeFile(join(watched, 'census-warm.csv'), censusCsv('over-warm'));
  await eventually(async () => (await callOk(engine!, 'jobs.query', { text: 'census-warm' })).items.find((j) => j.finished), 60_000);
  // Fill the disk under the journal to the last byte, then export a file.
  await run('sh', ['-c', `dd if=/dev/zero of=${join(mountPoint!, 'filler')} bs=4k 2>/dev/null || true`]);
  await writeFile(join(watched, 'census-full.csv'), censusCsv('over-full'));
  const said = await eventually(full, 60_000);
  expect(said).toMatchObject({ level: 'error', until: 'journal-written' });

  await rm(join(mountPoint!, 'filler'));
  await eventually(async () => (await notices()).find((n) => /the upload journal can be written again/.test(n.message)), 60_000);
  // Over: gone from the list a window opened now asks for, and from the windows open (the stream says so).
  expect(await full()).toBeUndefined();
  // The stream may say it a moment after the list: waited for, not read at once.
  const goneSaid = () => stream!.messages.filter((m) => m.event === 'noticesGone').map((m) => JSON.parse(m.data) as NoticesGone)
    .some((g) => g.ids.includes(said.id));
  await eventually(() => Promise.resolve(goneSaid() ? true : undefined), 10_000);
  await eventually(async () => (await callOk(engine!, 'jobs.query', { text: 'census-full' })).items.find((j) => j.outcome === 'uploaded'), 60_000);
}, 180_000);
