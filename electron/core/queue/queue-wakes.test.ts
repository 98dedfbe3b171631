/**
 * The queue goes on by itself: after a pass that failed as a whole (the settings could not be read), and after the
 * computer's clock was set back while a retry waited. Real queue, real server, real files.
 */
import { afterEach, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { LastingError } from '../notices/lasting-error';
import { setFaults } from '../../../test/helpers/api-kit';
import { eventually, getToken } from '../../../test/helpers/local-server';
import { censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

it('tries a pass that failed as a whole again by itself, once its cause is gone', async () => {
  env = await startQueueEnv();
  const settings = env.settings;
  let broken = false;
  const tries: string[] = [];
  const queue = env.queue({
    settings: () => {
      if (broken) throw new Error('the settings file is being saved');
      return settings;
    },
    logger: createLogger('test-queue', (line) => tries.push(line)),
  });
  const errors: string[] = [];
  queue.on('error', (error) => errors.push(error.message));
  const ends: string[] = [];
  queue.on('error', (error) => ends.push(error instanceof LastingError ? `until ${error.until}` : 'for good'));
  // Every opening of a queue ends what an earlier one said waits for other services: not this test's concern.
  queue.on('over', (end) => end !== 'queue-opened' && ends.push(`over: ${end}`));
  await queue.start();
  await queue.idle();
  const file = await env.write('census-stall.csv', censusCsv('stall'));
  broken = true;
  const job = queue.add(file)!;
  const said = await eventually(() => errors.find((m) => m.includes('being saved')), 10_000);
  // It keeps failing for a while: tried again and again, said once (not a new message at every try).
  await eventually(() => (tries.filter((line) => line.includes('being saved')).length >= 4 ? true : undefined), 20_000);
  expect(errors.filter((m) => m.includes('being saved'))).toHaveLength(1);
  // Nothing else happens from here on (no new file, no step under way): the queue must wake by itself.
  broken = false;
  const done = await env.finished(queue, job.id);
  expect(done.state).toBe('uploaded');
  expect(said).toMatch(/trying again in \d+ s$/);
  // The clerk's notice of it lasts until a pass works again, and is said to be over then, once.
  expect(ends).toEqual(['until queue-runs', 'over: queue-runs']);
}, 60_000);

it('retries when it said it would, even if the clock was set back an hour meanwhile', async () => {
  env = await startQueueEnv();
  const token = await getToken(env.server.url);
  await setFaults(env.server.url, token, [{ pathPrefix: '/law/api/v1/payroll-submissions', errorRate: 1, errorStatus: 503 }]);
  let offset = 0;
  const queue = env.queue({ now: () => Date.now() + offset, retry: { baseMs: 2_000, maxMs: 2_000 } });
  await queue.start();
  const job = queue.add(await env.write('census-clock.csv', censusCsv('clock')))!;
  await eventually(() => (queue.job(job.id)?.state === 'waiting' ? true : undefined), 20_000);
  // The service recovers, and the computer's clock is put back an hour (a time-zone fix, NTP on a fast clock).
  await setFaults(env.server.url, token, []);
  offset = -3_600_000;
  const done = await env.finished(queue, job.id);
  expect(done.state).toBe('uploaded');
}, 60_000);
