/**
 * The server's disk fills under an upload: the PUT is answered 507 Insufficient Storage, saying so (not the 500 of an
 * unexpected failure, which tells the clerk to contact support), nothing is kept and the address stays open; the
 * uploader waits with those words and sends the file once space returns. A real server with its data folder on a real
 * 1 MB tmpfs (mounted as root), real HTTP, the real upload queue.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { setFaults } from '../../../test/helpers/api-kit';
import { fileIdOf, grantFor, metadata, putFile } from '../../../test/helpers/file-handshake';
import type { TestServer } from '../../../test/helpers/local-server';
import { eventually, getToken, startTestServer } from '../../../test/helpers/local-server';
import { censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { mountSmallDisk, type SmallDisk } from '../../../test/helpers/small-disk';

let server: TestServer | undefined;
let env: QueueEnv | undefined;
let disk: SmallDisk | undefined;
afterEach(async () => {
  await env?.close();
  await server?.stop();
  env = undefined;
  server = undefined;
  await disk?.remove();
  disk = undefined;
});

/** A data folder on a fresh 1 MB tmpfs. */
async function smallDisk(): Promise<string> {
  disk = await mountSmallDisk('1m', { prefix: 'server-tmpfs-' });
  const dataDir = join(disk.path, 'data');
  await mkdir(dataDir);
  return dataDir;
}

/** Fills the disk to its last byte; returns the filler, to remove for space to return. */
const fillDisk = (): Promise<string> => (disk as SmallDisk).fill();

const stateOf = (running: TestServer, uploadUrl: string) =>
  (running.ctx.db.prepare('SELECT status FROM files WHERE id = ?').get(fileIdOf(uploadUrl)) as { status: string }).status;

it('answers 507 when the body cannot be written or its arrival recorded, keeps nothing, and takes the file once space returns', async () => {
  const dataDir = await smallDisk();
  server = await startTestServer({ dataDir });
  const token = await getToken(server.url);
  const content = censusCsv('server-disk-full', 40);
  const grant = await grantFor(server.url, token, metadata(content, { fileName: 'census-full.csv' }));
  // An empty body needs no room on the disk: only recording its arrival (a write to SQLite) fails.
  const empty = await grantFor(server.url, token, metadata('', { fileName: 'census-empty.csv' }));
  const filler = await fillDisk();

  for (const [uploadUrl, body, name] of [[grant.uploadUrl, content, 'census-full.csv'], [empty.uploadUrl, '', 'census-empty.csv']] as const) {
    const put = await putFile(uploadUrl, body);
    expect(put.status, JSON.stringify(put.body)).toBe(507);
    expect(put.body).toMatchObject({ title: 'Insufficient Storage', statusCode: 507 });
    expect(put.body.errors?.[0]).toMatch(new RegExp(`^the server's disk is full, so the file ${name} could not be stored \\(nothing was kept\\); `
      + `once space is freed on the server's disk, this upload address can be used again \\(until \\d{4}-\\d\\d-\\d\\dT`));
    expect(stateOf(server, uploadUrl)).toBe('GRANTED');
  }
  // Nothing partial kept: neither a temporary file nor a stored one.
  expect(await readdir(join(dataDir, 'uploads'))).toEqual([]);

  await rm(filler);
  expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
  expect((await putFile(empty.uploadUrl, '')).status).toBe(200);
  expect(stateOf(server, grant.uploadUrl)).toBe('UPLOADED');
}, 60_000);

it('the uploader takes a 507 for a problem that passes: it waits, saying the server\'s disk is full, and sends the file once space returns', async () => {
  env = await startQueueEnv({ dataDir: await smallDisk() });
  const token = await getToken(env.server.url);
  // The upload is held a moment before its body is read: time to fill the disk after its grant was recorded.
  await setFaults(env.server.url, token, [{ pathPrefix: '/uploads/', latencyMs: 1_500 }]);
  const queue = env.queue();
  await queue.start();
  const job = queue.add(await env.write('census-full.csv', censusCsv('queue-server-disk-full', 40)))!;
  await eventually(() => (queue.job(job.id)?.state === 'uploading' ? true : undefined), 20_000);
  const filler = await fillDisk();

  const waiting = await eventually(() => {
    const now = queue.job(job.id);
    return now?.lastError?.includes('disk is full') ? now : undefined;
  }, 20_000);
  expect(waiting.lastError).toMatch(/^the upload failed: the server's disk is full, so the file census-full\.csv could not be stored \(nothing was kept\)/);
  expect(waiting.state).not.toBe('rejected');
  await rm(filler);
  await setFaults(env.server.url, token, []);
  const done = await env.finished(queue, job.id);
  expect(done.state).toBe('uploaded');
  expect(env.server.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE status = 'UPLOADED'").get()).toMatchObject({ n: 1 });
}, 120_000);
