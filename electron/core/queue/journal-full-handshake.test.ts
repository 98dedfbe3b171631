/**
 * The disk under the journal fills while a handshake is out: the grants it brings back cannot be journaled, nor can
 * the failure itself. That is said (an error event), never thrown where nothing catches it (the process would end),
 * and the file goes once space returns. Real queue, real server, the journal on a real 1 MB tmpfs.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { setFaults } from '../../../test/helpers/api-kit';
import { answersAfter, gate } from '../../../test/helpers/held-answers';
import { eventually, getToken } from '../../../test/helpers/local-server';
import { censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { mountSmallDisk, type SmallDisk } from '../../../test/helpers/small-disk';

let env: QueueEnv | undefined;
let disk: SmallDisk | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
  await disk?.remove();
  disk = undefined;
});

it('a journal that fills while a handshake is out is said, not thrown, and the file goes once space returns', async () => {
  env = await startQueueEnv();
  disk = await mountSmallDisk('1m', { prefix: 'queue-tmpfs-' });
  const dataDir = join(disk.path, 'data');
  await mkdir(dataDir);
  const token = await getToken(env.server.url);
  // The handshake's answer comes back only once the disk is full: it is slow, and it reaches the queue only once the
  // disk has been filled, however long that takes.
  await setFaults(env.server.url, token, [{ pathPrefix: '/law/api/v1/payroll-submissions', latencyMs: 3_000 }]);
  const diskFull = gate();
  const api = answersAfter(env.api, diskFull.opened, 'requestGrants');
  const queue = env.queue({ dataDir, api });
  const errors: string[] = [];
  queue.on('error', (error) => errors.push(error.message));
  await queue.start();
  const job = queue.add(await env.write('census-full.csv', censusCsv('journal-full')))!;
  await eventually(() => (queue.job(job.id)?.state === 'granting' ? true : undefined), 20_000);
  const filler = await disk.fill();
  diskFull.open();

  await eventually(() => errors.find((message) => /uploads cannot go on for now \(census-full\.csv first\): the disk that holds the data folder .* is full/.test(message)), 20_000);
  await rm(filler);
  await setFaults(env.server.url, token, []);
  const done = await env.finished(queue, job.id);
  expect(done.state).toBe('uploaded');
}, 120_000);
