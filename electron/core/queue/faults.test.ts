import { afterEach, describe, expect, it } from 'vitest';
import { getToken } from '../../../test/helpers/local-server';
import { censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { setFaults } from '../../../test/helpers/api-kit';
import type { Job } from './job-types';
import type { UploadQueue } from './upload-queue';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function uploadAll(e: QueueEnv, count: number, prefix: string): Promise<{ jobs: Job[]; contents: string[]; queue: UploadQueue }> {
  const queue = e.queue();
  const contents: string[] = [];
  const added: Job[] = [];
  for (let i = 0; i < count; i += 1) {
    contents.push(censusCsv(`${prefix}${i}`));
    added.push(queue.add(await e.write(`census-${prefix}${i}.csv`, contents[i]!))!);
  }
  await queue.start();
  const jobs: Job[] = [];
  for (const job of added) jobs.push(await e.finished(queue, job.id));
  return { jobs, contents, queue };
}

describe('the queue under failures', () => {
  it('uploads every file exactly once through dropped and failed requests', async () => {
    env = await startQueueEnv();
    const token = await getToken(env.server.url);
    await setFaults(env.server.url, token, [
      { pathPrefix: '/law', errorRate: 0.3, dropRate: 0.3 },
      { pathPrefix: '/uploads', errorRate: 0.3, dropRate: 0.3 },
    ]);
    const { jobs, contents } = await uploadAll(env, 12, 'F');
    expect(jobs.map((j) => j.state)).toEqual(jobs.map(() => 'uploaded'));
    for (const content of contents) {
      expect(env.serverFiles(md5Of(content)).filter((f) => f.status === 'UPLOADED')).toHaveLength(1);
    }
    expect(env.requests('/uploads/%').some((r) => r.status !== 200)).toBe(true);
  });

  it('makes progress when grants live only 2 seconds', async () => {
    env = await startQueueEnv({ uploadTtlSeconds: 2 });
    const { jobs } = await uploadAll(env, 6, 'T');
    expect(jobs.map((j) => j.state)).toEqual(jobs.map(() => 'uploaded'));
  });

  it('makes progress when tokens live only 2 seconds', async () => {
    env = await startQueueEnv({ tokenTtlSeconds: 2 });
    const first = await uploadAll(env, 2, 'K');
    await new Promise((r) => setTimeout(r, 2_500));
    const { queue } = first;
    const later = queue.add(await env.write('census-late.csv', censusCsv('late')))!;
    expect([...first.jobs, await env.finished(queue, later.id)].map((j) => j.state)).toEqual(['uploaded', 'uploaded', 'uploaded']);
  });

  it('keeps files waiting through an outage instead of refusing them, and reports them as failed after the bound', async () => {
    env = await startQueueEnv();
    const token = await getToken(env.server.url);
    await setFaults(env.server.url, token, [{ pathPrefix: '/law', errorRate: 1 }]);
    const queue = env.queue({ retry: { baseMs: 5, maxMs: 20, failAfter: 3, giveUp: true } });
    const job = queue.add(await env.write('census-outage.csv', censusCsv('O')))!;
    await queue.start();
    await queue.idle();
    expect(queue.job(job.id)).toMatchObject({ state: 'waiting', resumeState: 'granting', attempts: 3 });
    expect(queue.failures().map((j) => j.id)).toEqual([job.id]);
    expect(await env.tree()).toEqual(['census-outage.csv']);
  });
});
