/**
 * A refused file journaled for a service before any client was set (the first run: address and folder set, the
 * credentials not yet), fixed and put back once a client is set: it goes to that service as that client, as every
 * job of the service queued before a client was set does, instead of waiting for a client it can never match.
 * A real local server, journal and watched folder.
 */
import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_CLIENT } from '../../../test/helpers/local-server';
import { censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { requeueJob } from './job-actions';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('a refused file put back after the first client was set', () => {
  it('is sent to its service as the client now set', async () => {
    env = await startQueueEnv({}, { preflight: 'block' } as never);
    const service = { profile: 'production', baseUrl: env.server.url };
    const before = env.queue({ service });
    await before.start();
    const refused = await env.finished(before, before.add(await env.write('census-bad.csv', 'lastName,firstName\nDoe\n'))!.id);
    expect(refused).toMatchObject({ state: 'rejected', profile: 'production' });
    expect(refused.clientId).toBeUndefined();
    await before.stop();

    const queue = env.queue({ service: { ...service, clientId: TEST_CLIENT.id } });
    await queue.start();
    const fixed = censusCsv('put-back-clientless');
    await writeFile(refused.archivedPath!, fixed);
    const again = await requeueJob(queue, queue.job(refused.id)!);
    expect(again.clientId).toBe(TEST_CLIENT.id);
    const done = await env.finished(queue, again.id);
    expect(done.state).toBe('uploaded');
    expect(env.serverFiles(md5Of(fixed))).toHaveLength(1);
  }, 60_000);
});
