/**
 * A file of the user's where an archive folder is to be made (a plain file named `rejected`): the refused file waits,
 * the message names the file in the way and what to do, and the file is filed away once that file is moved.
 * Real queue, real server, real folder.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { eventually } from '../../../test/helpers/local-server';
import { startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

it('names a file that stands where an archive folder must be, and files the refused file away once it is moved', async () => {
  env = await startQueueEnv();
  await writeFile(join(env.folder, 'rejected'), 'my notes\n');
  const queue = env.queue();
  const errors: string[] = [];
  queue.on('error', (error) => errors.push(error.message));
  await queue.start();
  // A name with a line break is refused, and its error must not carry the break into the message either.
  const job = queue.add(await env.write('census\n2026-01-01 09:00:00.000 INFO forged.csv', 'lastName\n'))!;
  const message = await eventually(() => errors.find((m) => m.includes('archive folder failed')), 20_000);
  expect(message).toContain(`a file named "rejected" in ${env.folder} is where the folder of that name must be; move or rename that file`);
  expect(message).toContain('census\\u000a2026-01-01');
  expect(message).not.toMatch(/[\r\n]/);
  expect(queue.job(job.id)?.archivedAt).toBeUndefined();

  await rename(join(env.folder, 'rejected'), join(env.folder, 'my notes.txt'));
  const done = await env.finished(queue, job.id);
  expect(done.state).toBe('rejected');
  expect(done.archivedPath).toBe(join(env.folder, 'rejected', 'census\n2026-01-01 09:00:00.000 INFO forged.csv'));
}, 60_000);
