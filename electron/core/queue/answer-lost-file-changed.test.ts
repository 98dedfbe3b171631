/**
 * A file that changes after a PUT whose answer never came back (the connection cut after the service took the file,
 * or the uploader stopped as the 200 arrived): the version the PUT sent may be at the service. Taken for a new version
 * at once, the file would be sent again and the rows of the first version imported twice. Real server, a real proxy
 * that cuts the connection once the server has answered, real files, the queue stopped and started again as a crash
 * and a restart would.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setFaults } from '../../../test/helpers/api-kit';
import { TEST_CLIENT, eventually, getToken } from '../../../test/helpers/local-server';
import { startTestProxy, type TestProxy } from '../../../test/helpers/proxy';
import { censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { createLogger } from '../../lib/logger';
import { createApiClient, type ApiClient } from '../api';
import type { Job } from './job-types';
import type { UploadQueue, UploadQueueOptions } from './upload-queue';

let env: QueueEnv | undefined;
let proxy: TestProxy | undefined;
let api: ApiClient | undefined;
afterEach(async () => {
  api?.close();
  await env?.close();
  await proxy?.close();
  env = undefined;
  proxy = undefined;
  api = undefined;
});

const LATE_ROW = 'Doe,John,late-1,2020-01-31,ACTIVE\n';
const uploadedRows = (e: QueueEnv, content: string) => e.serverFiles(md5Of(content)).filter((f) => f.status === 'UPLOADED');

/** A queue whose requests go through a proxy that can cut the connection once the server has answered. */
async function throughProxy(): Promise<{ e: QueueEnv; queue: (extra?: Partial<UploadQueueOptions>) => UploadQueue }> {
  const e = await startQueueEnv();
  proxy = await startTestProxy();
  api = createApiClient({
    baseUrl: e.server.url, proxy: proxy.url, retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 50 },
    credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
    logger: createLogger('test-api', () => undefined),
  });
  const service = { profile: 'local', baseUrl: e.server.url, clientId: TEST_CLIENT.id };
  return { e, queue: (extra = {}) => e.queue({ api, service, ...extra }) };
}

/**
 * Cuts the connection of `id`'s first PUT once the server has answered it, and runs `change` on the file as soon as
 * the job waits to try again (before it does).
 */
function loseFirstAnswer(queue: UploadQueue, id: number, change: () => void): void {
  let cut = false;
  let changed = false;
  queue.on('job', (job: Job) => {
    if (job.id !== id) return;
    if (!cut && job.state === 'uploading' && job.putStartedAt !== undefined) {
      cut = true;
      proxy?.dropNextAnswers(1);
    }
    if (cut && !changed && job.state === 'waiting') {
      changed = true;
      change();
    }
  });
}

describe('a file changed after a PUT whose answer was lost', () => {
  it('appended to: the version the service took counts as uploaded and the grown file is kept in not-sent/, unsent', async () => {
    const { e, queue: make } = await throughProxy();
    env = e;
    const queue = make();
    const first = censusCsv('answer-lost', 3);
    const file = await e.write('census-answer-lost.csv', first);
    const job = queue.add(file)!;
    const seen: Job[] = [];
    queue.on('job', (j) => seen.push(j));
    loseFirstAnswer(queue, job.id, () => appendFileSync(file.path, LATE_ROW));
    await queue.start();

    const done = await e.finished(queue, job.id);
    expect(done.state).toBe('uploaded');
    expect(done.md5).toBe(md5Of(first));
    expect(done.lastError).toMatch(/changed after it was read and uploaded: the service holds it as it was then/);
    // The service holds the first version once; the grown file was neither sent nor filed as uploaded.
    expect(uploadedRows(e, first)).toHaveLength(1);
    expect(uploadedRows(e, first + LATE_ROW)).toHaveLength(0);
    expect(await readFile(join(e.folder, 'not-sent', 'census-answer-lost.csv'), 'utf8')).toBe(first + LATE_ROW);
    expect(seen.filter((s) => s.id !== job.id)).toEqual([]);
    expect((await e.tree()).filter((f) => f.startsWith('uploaded/'))).toEqual([]);
  }, 60_000);

  it('rewritten with another size: the version the service took counts as uploaded, and the new one is queued and sent', async () => {
    const { e, queue: make } = await throughProxy();
    env = e;
    const queue = make();
    const first = censusCsv('rewritten-v1', 3);
    const second = censusCsv('rewritten-v2', 5);
    const file = await e.write('census-rewritten.csv', first);
    const job = queue.add(file)!;
    const seen: Job[] = [];
    queue.on('job', (j) => seen.push(j));
    loseFirstAnswer(queue, job.id, () => writeFileSync(file.path, second));
    await queue.start();

    const done = await e.finished(queue, job.id);
    // The first version is at the service: its job says so, it is not forgotten.
    expect(done.state).toBe('uploaded');
    expect(done.md5).toBe(md5Of(first));
    expect(done.lastError).toMatch(/changed after it was read \(the earlier version was uploaded\); the new version is queued again/);
    const fresh = await eventually(() => seen.find((s) => s.id !== job.id && s.archivedAt !== undefined), 30_000);
    expect(fresh.state).toBe('uploaded');
    expect(fresh.md5).toBe(md5Of(second));
    expect(await readFile(fresh.archivedPath!, 'utf8')).toBe(second);
    expect(uploadedRows(e, first)).toHaveLength(1);
    expect(uploadedRows(e, second)).toHaveLength(1);
  }, 60_000);

  it('appended to while the uploader was stopped: a PUT that never arrived sends the file as it is now; one whose answer was lost keeps it in not-sent/', async () => {
    const { e, queue: make } = await throughProxy();
    env = e;
    const token = await getToken(e.server.url);
    // Retries far off: a job that failed waits until the queue is stopped, and the next start takes it up.
    const slow = { retry: { baseMs: 60_000, maxMs: 120_000 } };
    const waiting = (queue: UploadQueue, id: number) => eventually(() => {
      const j = queue.job(id);
      return j?.state === 'waiting' && j.putStartedAt !== undefined ? j : undefined;
    }, 30_000);

    // The upload never reaches the service (dropped before it is read); the uploader stops; the tool writes a row.
    await setFaults(e.server.url, token, [{ pathPrefix: '/uploads/', dropRate: 1 }]);
    const never = censusCsv('stopped-never', 3);
    const neverFile = await e.write('census-stopped-never.csv', never);
    let queue = make(slow);
    const neverJob = queue.add(neverFile)!;
    await queue.start();
    await waiting(queue, neverJob.id);
    await queue.stop();
    await setFaults(e.server.url, token, []);
    appendFileSync(neverFile.path, LATE_ROW);
    // At the next start the file as it is now is sent, once: the service surely never got the first version.
    queue = make(slow);
    await queue.start();
    const sent = await e.finished(queue, neverJob.id);
    expect(sent).toMatchObject({ state: 'uploaded', md5: md5Of(never + LATE_ROW) });
    expect(await readFile(sent.archivedPath!, 'utf8')).toBe(never + LATE_ROW);
    expect(uploadedRows(e, never + LATE_ROW)).toHaveLength(1);
    expect(uploadedRows(e, never)).toHaveLength(0);

    // The upload reaches the service and its answer is lost; the uploader stops; the tool writes a row.
    const arrived = censusCsv('stopped-arrived', 3);
    const arrivedFile = await e.write('census-stopped-arrived.csv', arrived);
    const arrivedJob = queue.add(arrivedFile)!;
    loseFirstAnswer(queue, arrivedJob.id, () => undefined);
    await waiting(queue, arrivedJob.id);
    await queue.stop();
    expect(uploadedRows(e, arrived)).toHaveLength(1);
    appendFileSync(arrivedFile.path, LATE_ROW);
    queue = make(slow);
    await queue.start();
    const kept = await e.finished(queue, arrivedJob.id);
    expect(kept).toMatchObject({ state: 'uploaded', md5: md5Of(arrived) });
    expect(uploadedRows(e, arrived)).toHaveLength(1);
    expect(uploadedRows(e, arrived + LATE_ROW)).toHaveLength(0);
    expect(await readFile(join(e.folder, 'not-sent', 'census-stopped-arrived.csv'), 'utf8')).toBe(arrived + LATE_ROW);
  }, 90_000);
});
