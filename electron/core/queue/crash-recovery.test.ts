import { link, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import type { StableFile } from './job-types';
import { openJournal, type JobPatch } from './journal';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Journals a job as a crashed run would have left it. */
function journaled(e: QueueEnv, file: StableFile, patch: JobPatch): number {
  const journal = openJournal(e.dataDir);
  const at = Date.now();
  const job = journal.insertJob(file, at, '2026-03-15');
  journal.update(job.id, patch, at);
  journal.close();
  return job.id;
}

const facts = (content: string): JobPatch => ({ md5: md5Of(content), fileType: '1', referenceDate: '2026-03-15T00:00:00Z' });

describe('crash recovery: a restart resumes every job from its journaled state', () => {
  it('re-PUTs a job caught uploading whose PUT had reached the server: one upload, archived', async () => {
    env = await startQueueEnv();
    const content = censusCsv('R1');
    const file = await env.write('census.csv', content);
    const [grant] = await env.api.requestGrants([{ fileType: '1', referenceDate: '2026-03-15T00:00:00Z', checksum: md5Of(content), fileName: 'census.csv' }]);
    await env.api.uploadFile(grant!.uploadUrl, file.path, { size: file.size });
    const id = journaled(env, file, {
      ...facts(content), state: 'uploading', grantUrl: grant!.uploadUrl, grantExpiresAt: Date.parse(grant!.expiration),
      grantIssuedAt: Date.now(), putStartedAt: Date.now(),
    });
    const queue = env.queue();
    await queue.start();
    const done = await env.finished(queue, id);
    expect(done.state).toBe('uploaded');
    expect(env.requests('/uploads/%').map((r) => r.status)).toEqual([200, 409]);
    expect(env.serverFiles(md5Of(content)).filter((f) => f.status === 'UPLOADED')).toHaveLength(1);
    expect(await readFile(done.archivedPath!, 'utf8')).toBe(content);
  });

  it('asks for a new grant when the journaled one is nearly expired; the 422 then means the file arrived', async () => {
    env = await startQueueEnv();
    const content = censusCsv('R2');
    const file = await env.write('census.csv', content);
    const [grant] = await env.api.requestGrants([{ fileType: '1', referenceDate: '2026-03-15T00:00:00Z', checksum: md5Of(content), fileName: 'census.csv' }]);
    await env.api.uploadFile(grant!.uploadUrl, file.path, { size: file.size });
    const id = journaled(env, file, {
      ...facts(content), state: 'uploading', grantUrl: grant!.uploadUrl, grantExpiresAt: Date.now() + 30_000,
      grantIssuedAt: Date.now() - 870_000, putStartedAt: Date.now(),
    });
    const queue = env.queue();
    await queue.start();
    const done = await env.finished(queue, id);
    expect(done.state).toBe('uploaded');
    expect(env.requests('/law/api/v1/payroll-submissions').map((r) => r.status)).toEqual([201, 422]);
    expect(env.requests('/uploads/%').map((r) => r.status)).toEqual([200]);
  });

  it('uploads a job caught uploading whose PUT never arrived, exactly once', async () => {
    env = await startQueueEnv();
    const content = censusCsv('R3');
    const file = await env.write('census.csv', content);
    const [grant] = await env.api.requestGrants([{ fileType: '1', referenceDate: '2026-03-15T00:00:00Z', checksum: md5Of(content), fileName: 'census.csv' }]);
    const id = journaled(env, file, {
      ...facts(content), state: 'uploading', grantUrl: grant!.uploadUrl, grantExpiresAt: Date.parse(grant!.expiration),
      grantIssuedAt: Date.now(), putStartedAt: Date.now(),
    });
    const queue = env.queue();
    await queue.start();
    expect((await env.finished(queue, id)).state).toBe('uploaded');
    expect(env.requests('/uploads/%').map((r) => r.status)).toEqual([200]);
  });

  it.each(['found', 'hashing', 'validating', 'granting'] as const)('redoes a job caught %s', async (state) => {
    env = await startQueueEnv();
    const content = censusCsv(`S-${state}`);
    const file = await env.write('census.csv', content);
    const id = journaled(env, file, state === 'granting' ? { ...facts(content), state } : { state });
    const queue = env.queue();
    await queue.start();
    expect(await env.finished(queue, id)).toMatchObject({ state: 'uploaded', md5: md5Of(content) });
    expect(env.serverFiles(md5Of(content)).map((f) => f.status)).toEqual(['UPLOADED']);
  });

  it('finishes a move interrupted after the link: the file is archived once, nothing uploaded again', async () => {
    env = await startQueueEnv();
    const content = censusCsv('M');
    const file = await env.write('census.csv', content);
    const target = join(env.folder, 'uploaded', '2026-03-15', 'census.csv');
    await mkdir(join(env.folder, 'uploaded', '2026-03-15'), { recursive: true });
    await link(file.path, target);
    const id = journaled(env, file, { ...facts(content), state: 'uploaded', uploadedAt: Date.now(), archiveTarget: target });
    const queue = env.queue();
    await queue.start();
    const done = await env.finished(queue, id);
    expect(done.archivedPath).toBe(target);
    expect(await env.tree()).toEqual(['uploaded/2026-03-15/census.csv']);
    expect(env.requests('/%')).toEqual([]);
  });

  it('marks a manual batch caught mid-send as unknown, never re-sending it', async () => {
    env = await startQueueEnv();
    const journal = openJournal(env.dataDir);
    journal.insertBatch('census', 3, Date.now());
    journal.close();
    const queue = env.queue();
    await queue.start();
    expect(queue.batches()).toMatchObject([{ state: 'unknown', records: 3, error: expect.stringMatching(/stopped while/) as unknown }]);
    expect(env.requests('/law/api/v1/census')).toEqual([]);
  });
});
