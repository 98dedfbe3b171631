/**
 * An upload address is kept in the journal only while it may still be used: once the service holds the file, the
 * address, whose signature lets anyone who reads it upload there for the rest of its life, is forgotten. A real queue,
 * journal and local server. (Its old copy in the journal's write-ahead log is overwritten as the log is reused.)
 */
import { afterEach, expect, it } from 'vitest';
import { censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

it('forgets the upload address, signature and all, once the file is uploaded', async () => {
  env = await startQueueEnv();
  const queue = env.queue();
  const granted: string[] = [];
  queue.on('job', (job) => {
    if (job.state === 'uploading' && job.grantUrl) granted.push(job.grantUrl);
  });
  const job = queue.add(await env.write('census-2026-03-15.csv', censusCsv('A', 2)))!;
  await queue.start();
  const done = await env.finished(queue, job.id);
  expect(done.state).toBe('uploaded');
  expect(granted.length).toBeGreaterThan(0);
  expect(queue.job(job.id)?.grantUrl).toBeUndefined();
  await queue.stop();
  // Nor in the journal, as the next start reads it.
  const again = env.queue();
  expect(again.job(job.id)).toMatchObject({ state: 'uploaded' });
  expect(again.job(job.id)?.grantUrl).toBeUndefined();
  await again.stop();
});
