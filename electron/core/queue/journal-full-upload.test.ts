/**
 * The disk under the journal fills while a file's upload is out: neither the upload's outcome nor the wait after it
 * can be journaled. Before, nothing held the job back: it was started again at once, for ever, about 9,000 log lines
 * and 2,000 notices a second in SQLite's words ("database or disk is full"). Now the job waits with the queue's
 * backoff, the problem is said once in words that name the data folder's disk and what to do, and once space returns
 * the upload goes on from what the journal holds: sent once, nothing called uploaded before it is.
 * Real queue, real server, the journal on a real 1 MB tmpfs.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { LastingError } from '../notices/lasting-error';
import { setFaults } from '../../../test/helpers/api-kit';
import { answersAfter, gate } from '../../../test/helpers/held-answers';
import { eventually, getToken } from '../../../test/helpers/local-server';
import { censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { mountSmallDisk, type SmallDisk } from '../../../test/helpers/small-disk';

let env: QueueEnv | undefined;
let disk: SmallDisk | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
  await disk?.remove();
  disk = undefined;
});

it('a journal that fills during an upload holds the file back with backoff, says so once, and goes on once space returns', async () => {
  env = await startQueueEnv();
  disk = await mountSmallDisk('1m', { prefix: 'queue-tmpfs-' });
  const dataDir = join(disk.path, 'data');
  await mkdir(dataDir);
  const token = await getToken(env.server.url);
  // The upload's answer comes back only once the disk is full: it is slow, and it reaches the queue only once the disk
  // has been filled, however long that takes.
  await setFaults(env.server.url, token, [{ pathPrefix: '/uploads/', latencyMs: 3_000 }]);
  const diskFull = gate();
  const api = answersAfter(env.api, diskFull.opened, 'uploadFile');
  const lines: string[] = [];
  // The production backoff's first steps, so that a few seconds hold several tries.
  const queue = env.queue({ dataDir, api, retry: { baseMs: 500, maxMs: 1_000 }, logger: createLogger('test-queue', (line) => lines.push(line)) });
  const errors: Error[] = [];
  queue.on('error', (error) => errors.push(error));
  const ends: string[] = [];
  queue.on('over', (end) => ends.push(end));
  await queue.start();
  const content = censusCsv('journal-full-upload');
  const job = queue.add(await env.write('census-full-put.csv', content))!;
  await eventually(() => (queue.job(job.id)?.putStartedAt !== undefined ? true : undefined), 20_000);
  const filler = await disk.fill();
  diskFull.open();

  const said = await eventually(() => errors.find((error) => /census-full-put\.csv/.test(error.message)), 20_000);
  // Held back: tried again a handful of times over these seconds, not thousands; said once, not at every try.
  await sleep(4_000);
  const about = lines.filter((line) => line.includes('census-full-put.csv'));
  expect(about.length).toBeGreaterThan(1);
  expect(about.length).toBeLessThan(20);
  expect(errors).toEqual([said]);
  expect(said).toBeInstanceOf(LastingError);
  expect((said as LastingError).until).toBe('journal-written');
  expect(said.message).toContain(`the disk that holds the data folder ${dataDir} is full`);
  expect(said.message).toContain('free some space on it');
  expect(said.message).toContain('nothing is lost');
  // Nothing is called uploaded while its outcome is not journaled.
  expect(queue.job(job.id)?.state).toBe('uploading');

  await rm(filler);
  await setFaults(env.server.url, token, []);
  const done = await env.finished(queue, job.id);
  expect(done.state).toBe('uploaded');
  expect(env.serverFiles(md5Of(content))).toHaveLength(1);
  // Said to be over, once.
  expect(ends.filter((end) => end === 'journal-written')).toEqual(['journal-written']);
  expect(errors).toEqual([said]);
}, 120_000);
