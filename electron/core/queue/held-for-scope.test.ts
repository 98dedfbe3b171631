/**
 * Files held because the client lacks `submissions:write`: Retry now tries again (and is held again, with the same
 * words, while the scope is still missing), a scope given meanwhile is seen (a fresh token), and once one handshake
 * goes through no other file stays held for the cause that is gone. Real server, restarted with the scope as a clerk's
 * administrator would; the token the app already holds stays valid across that restart, without the scope.
 */
import { rm, writeFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPES, settingsSchema } from '../../../shared';
import { createApiClient, type ApiClient } from '../api';
import { createLogger } from '../../lib/logger';
import { loggedRequests } from '../../../test/helpers/api-kit';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../../../test/helpers/local-server';
import { censusCsv, FAST_RETRY } from '../../../test/helpers/queue-kit';
import { LastingError } from '../notices/lasting-error';
import type { Job, StableFile } from './job-types';
import { createUploadQueue, type UploadQueue } from './upload-queue';

const WITHOUT_UPLOADS = SCOPES.filter((scope) => scope !== 'submissions:write');

let server: TestServer | undefined;
let api: ApiClient | undefined;
let queue: UploadQueue | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await queue?.stop();
  api?.close();
  await server?.stop();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  queue = undefined;
  api = undefined;
  server = undefined;
});

async function write(folder: string, name: string, content: string): Promise<StableFile> {
  const path = join(folder, name);
  await writeFile(path, content);
  const info = await stat(path);
  return { path, name, size: info.size, mtimeMs: info.mtimeMs };
}

const handshakes = (srv: TestServer) => loggedRequests(srv, '/law/api/v1/payroll-submissions').map((r) => r.status);
const held = (job: Job | undefined) => (job?.state === 'waiting' && job.heldFor !== undefined ? job : undefined);

/** A server whose client lacks submissions:write (its data folder kept, so it can be restarted), and a queue. */
async function setUp(): Promise<{ q: UploadQueue; folder: string; giveScope: () => Promise<void> }> {
  const serverDir = await tempDir('held-server-');
  const folder = await tempDir('held-folder-');
  const dataDir = await tempDir('held-data-');
  dirs.push(serverDir, folder, dataDir);
  server = await startTestServer({ dataDir: serverDir, clients: [{ ...TEST_CLIENT, scopes: WITHOUT_UPLOADS }] });
  const port = Number(new URL(server.url).port);
  api = createApiClient({
    baseUrl: server.url, proxy: '', retry: { retries: 3, baseDelayMs: 5, maxDelayMs: 50 },
    credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
    logger: createLogger('test-api', () => undefined),
  });
  const settings = settingsSchema.parse({});
  queue = createUploadQueue({ dataDir, api, settings: () => settings, retry: FAST_RETRY, logger: createLogger('test-queue', () => undefined) });
  return {
    q: queue, folder,
    // The administrator gives the client the scope: the service restarted with it. The token the uploader holds
    // stays valid across the restart, but it was issued without the scope.
    async giveScope() {
      await server?.stop();
      server = await startTestServer({ dataDir: serverDir, port, clients: [{ ...TEST_CLIENT, scopes: [...SCOPES] }] });
    },
  };
}

const filed = (q: UploadQueue, id: number) => eventually(() => {
  const job = q.job(id);
  return job?.archivedAt !== undefined ? job : undefined;
}, 30_000);

describe('a file held for a missing scope', () => {
  it('is tried again by Retry now, held again with the same words, and sent by Retry now once the client has the scope', async () => {
    const { q, folder, giveScope } = await setUp();
    const a = q.add(await write(folder, 'census-a.csv', censusCsv('held-a')))!;
    const c = q.add(await write(folder, 'census-c.csv', censusCsv('held-c')))!;
    // What the clerk's notices are told: the hold lasts until the scope is given, and is said to be over then.
    const told: string[] = [];
    q.on('error', (error) => told.push(error instanceof LastingError ? `held until ${error.until}` : error.message));
    // Every opening of a queue ends what an earlier one said waits for other services: not this test's concern.
    q.on('over', (end) => end !== 'queue-opened' && told.push(`over: ${end}`));
    await q.start();

    // Both are held by one refused handshake; the words say what to do, and no next try is promised.
    const first = await eventually(() => held(q.job(a.id)));
    expect(first.lastError).toMatch(/lacks the scope submissions:write .*give the client submissions:write at the service, then press Retry now, or run the uploader again on the command line$/);
    expect(first.nextAttemptAt).toBeUndefined();
    expect(held(q.job(c.id))?.nextAttemptAt).toBeUndefined();
    expect(handshakes(server!)).toEqual([403]);

    // Retry now while the scope is still missing: a real try, refused again, held again with the same words.
    expect(q.retryNow(a.id)).toBeDefined();
    await eventually(() => (handshakes(server!).length === 2 ? true : undefined));
    const again = await eventually(() => held(q.job(a.id)));
    // The same words, word for word: said once however often it is held again.
    expect(again.lastError).toBe(first.lastError);
    expect(again.heldFor).toBe(again.lastError);
    expect(again.nextAttemptAt).toBeUndefined();
    expect(handshakes(server!)).toEqual([403, 403]);
    expect(told).toEqual(['held until scope-given', 'held until scope-given']);
    // The other file was not pressed: it stays held, with no next try promised.
    expect(held(q.job(c.id))?.nextAttemptAt).toBeUndefined();

    // With the scope given, Retry now asks for a new token, which carries it.
    await giveScope();
    q.retryNow(a.id);
    const sent = await filed(q, a.id);
    expect(sent).toMatchObject({ state: 'uploaded' });
    expect(sent.heldFor).toBeUndefined();
    // The cause is gone: the file held beside it goes too, without a Retry now of its own.
    expect(await filed(q, c.id)).toMatchObject({ state: 'uploaded' });
    expect(q.failures()).toEqual([]);
    // Said to be over, once.
    expect(told.slice(2)).toEqual(['over: scope-given']);
  }, 60_000);

  it('does not hold a file found after the scope was given, and its upload frees the files held before', async () => {
    const { q, folder, giveScope } = await setUp();
    const a = q.add(await write(folder, 'census-a.csv', censusCsv('early-a')))!;
    await q.start();
    await eventually(() => held(q.job(a.id)));

    await giveScope();
    const before = handshakes(server!).length;
    const b = q.add(await write(folder, 'census-b.csv', censusCsv('late-b')))!;
    expect(await filed(q, b.id)).toMatchObject({ state: 'uploaded' });
    expect(await filed(q, a.id)).toMatchObject({ state: 'uploaded' });
    expect(handshakes(server!).slice(before)).toEqual([201, 201]);
    expect(q.failures()).toEqual([]);
  }, 60_000);
});
