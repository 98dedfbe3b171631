/**
 * "Uploaded" only when the service holds that exact file: a stalled upload through a proxy, and a file replaced or
 * appended to during a slow PUT. Real server, real proxy, real files.
 */
import { execFile } from 'node:child_process';
import { appendFile, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../api';
import { createLogger } from '../../lib/logger';
import { setFaults } from '../../../test/helpers/api-kit';
import { answersAfter, gate } from '../../../test/helpers/held-answers';
import { TEST_CLIENT, eventually, getToken } from '../../../test/helpers/local-server';
import { startTestProxy, type TestProxy } from '../../../test/helpers/proxy';
import { censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import type { Job } from './job-types';

const run = promisify(execFile);
let env: QueueEnv | undefined;
let proxy: TestProxy | undefined;
afterEach(async () => {
  await env?.close();
  await proxy?.close();
  env = undefined;
  proxy = undefined;
});

const uploadedRows = (e: QueueEnv, content: string) => e.serverFiles(md5Of(content)).filter((f) => f.status === 'UPLOADED');

describe('proof of arrival', () => {
  it('a stalled upload is retried, not taken as uploaded from the 409 "in progress"; the server cuts it off after 30 s', async () => {
    env = await startQueueEnv();
    proxy = await startTestProxy({ stallPuts: { bytes: 2_000, times: 1 } });
    const api = createApiClient({
      baseUrl: env.server.url, proxy: proxy.url, timeoutMs: 2_000, retry: { retries: 3, baseDelayMs: 5, maxDelayMs: 50 },
      credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
      logger: createLogger('test-api', () => undefined),
    });
    try {
      const queue = env.queue({ api });
      const content = censusCsv('stalled', 200);
      const states: string[] = [];
      // The moment the queue says "uploaded", the service must already hold the file.
      queue.on('job', (job: Job) => {
        states.push(job.state);
        if (job.state === 'uploaded') states.push(`server:${uploadedRows(env!, content).length}`);
      });
      const job = queue.add(await env.write('census-stalled.csv', content))!;
      await queue.start();
      const done = await eventually(() => {
        const j = queue.job(job.id);
        return j?.archivedAt !== undefined ? j : undefined;
      }, 90_000, 200);
      expect(done.state).toBe('uploaded');
      expect(done.archivedPath).toMatch(/uploaded/);
      expect(done.importId).toEqual(expect.any(String));
      expect(states).toContain('server:1');
      expect(states).not.toContain('server:0');
      expect(uploadedRows(env, content)).toHaveLength(1);
      // Between the stall and the success the service answered 409 "in progress" at least once.
      const puts = env.requests('/uploads/%').filter((r) => r.method === 'PUT').map((r) => r.status);
      expect(puts).toContain(409);
      expect(puts.at(-1)).toBe(200);
      // Nothing of the cut-off upload was kept.
      expect((await readdir(env.server.ctx.uploadsDir)).filter((name) => name.endsWith('.part'))).toEqual([]);
    } finally {
      api.close();
    }
  }, 120_000);

  for (const change of ['renamed over', 'appended to', 'rewritten in place, its modification time set back,'] as const) {
    const then = change === 'appended to'
      ? 'the grown file is kept in not-sent/, unsent, as it would send the rows the service holds again'
      : 'the new version is queued and uploaded';
    it(`a file ${change} during a slow PUT is not filed as uploaded: ${then}`, async () => {
      env = await startQueueEnv();
      const token = await getToken(env.server.url);
      await setFaults(env.server.url, token, [{ pathPrefix: '/uploads/', latencyMs: 1_500 }]);
      // Queued for one service and client, as every session queues: the new version goes for that same client.
      const service = { profile: 'local', baseUrl: env.server.url, clientId: TEST_CLIENT.id };
      // The file is changed once the PUT has read all of it, and the PUT's answer reaches the queue only once the change
      // is made: however slow the machine, the change falls during the PUT.
      const changeMade = gate();
      const api = answersAfter(env.api, changeMade.opened, 'uploadFile');
      const queue = env.queue({ service, api });
      const first = censusCsv(`v1-${change.split(' ')[0]}`, 50);
      const file = await env.write('census-changing.csv', first);
      const job = queue.add(file)!;
      const seen: Job[] = [];
      queue.on('job', (j) => seen.push(j));
      let readWhole = false;
      queue.on('progress', (p) => {
        if (p.id === job.id && p.phase === 'uploading' && p.bytes === p.total) readWhole = true;
      });
      await queue.start();
      await eventually(() => (readWhole ? true : undefined), 20_000, 10);
      let second: string;
      if (change === 'renamed over') {
        second = censusCsv(`v2-${change.split(' ')[0]}`, 60);
        await writeFile(join(env.folder, 'census-changing.csv.tmp'), second);
        await rename(join(env.folder, 'census-changing.csv.tmp'), file.path);
      } else if (change === 'appended to') {
        const extra = 'Doe,John,appended-1,2020-01-31,ACTIVE\n';
        await appendFile(file.path, extra);
        second = first + extra;
      } else {
        // Same size, same file, the modification time put back to the nanosecond (`touch -r`, as a sync tool
        // would): only the status-change time tells.
        const before = await stat(file.path);
        const times = join(env.folder, 'times.ref');
        await run('touch', ['-r', file.path, times]);
        second = first.replace('v1-', 'v2-');
        expect(second).toHaveLength(first.length);
        await writeFile(file.path, second);
        await run('touch', ['-r', times, file.path]);
        expect((await stat(file.path)).mtimeMs).toBe(before.mtimeMs);
      }
      changeMade.open();
      const old = await env.finished(queue, job.id);
      expect(old.archivedPath).toBeUndefined();
      expect(old.lastError).toMatch(/changed after it was read/);
      if (change === 'appended to') {
        // The service holds the first rows; the grown file holds them too: it is not sent, nor filed as uploaded.
        expect(old.state).toBe('uploaded');
        expect(await readFile(join(env.folder, 'not-sent', 'census-changing.csv'), 'utf8')).toBe(second);
        expect(uploadedRows(env, first)).toHaveLength(1);
        expect(uploadedRows(env, second)).toHaveLength(0);
        expect(seen.filter((s) => s.id !== job.id)).toEqual([]);
        expect((await env.tree()).filter((f) => f.startsWith('uploaded/'))).toEqual([]);
        return;
      }
      const fresh = await eventually(() => {
        const j = seen.find((s) => s.id !== job.id && s.archivedAt !== undefined);
        return j;
      }, 30_000);
      expect(fresh.state).toBe('uploaded');
      expect(fresh).toMatchObject(service);
      expect(await readFile(fresh.archivedPath!, 'utf8')).toBe(second);
      expect(uploadedRows(env, second)).toHaveLength(1);
      // Whatever sits in uploaded/ is a version the service holds.
      const archived = (await env.tree()).filter((f) => f.startsWith('uploaded/'));
      expect(archived).toHaveLength(1);
      for (const path of archived) expect(uploadedRows(env, await readFile(join(env.folder, path), 'utf8'))).toHaveLength(1);
    }, 60_000);
  }
});
