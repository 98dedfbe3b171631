/**
 * The service's refusal of one file's handshake item, as the clerk reads it: no `[0]` (the item's place in a request
 * the clerk never saw), the field said in words. Real queue, real local server, real files.
 */
import { afterEach, expect, it } from 'vitest';
import { grantFor, metadata, putFile } from '../../../test/helpers/file-handshake';
import { getToken } from '../../../test/helpers/local-server';
import { censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

it('says a file name the service refuses with the field in words, also when it shared its handshake with a good file', async () => {
  env = await startQueueEnv();
  const queue = env.queue();
  // Linux lets a name hold a line break; the service's handshake refuses such a fileName (a 400 naming `[0].fileName`).
  const bad = queue.add(await env.write('census-a\nb.csv', censusCsv('item-bad')))!;
  const good = queue.add(await env.write('census-good.csv', censusCsv('item-good')))!;
  await queue.start();
  const refused = await env.finished(queue, bad.id);
  expect(refused.state).toBe('rejected');
  expect(refused.lastError).toBe(
    'the service refused the file: its file name must not hold control characters, line breaks, or invisible or bidirectional marks',
  );
  expect((await env.finished(queue, good.id)).state).toBe('uploaded');
}, 60_000);

it('says a checksum the service already holds (its 422) without the item\'s place', async () => {
  env = await startQueueEnv();
  const content = censusCsv('item-dup');
  // Uploaded before, from elsewhere: the queue learns it only from the handshake's 422.
  const token = await getToken(env.server.url);
  const grant = await grantFor(env.server.url, token, metadata(content, { fileName: 'census-earlier.csv' }));
  expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
  const queue = env.queue();
  const job = queue.add(await env.write('census-again.csv', content))!;
  await queue.start();
  const done = await env.finished(queue, job.id);
  expect(done.state).toBe('duplicate');
  expect(done.lastError).toMatch(/^the file census-earlier\.csv with this checksum was already uploaded at \S+ \(import [^)]+\); a file is imported only once$/);
}, 60_000);
