/**
 * A service failure keeps its trace id in the reason the clerk sees (the service asks to contact support with it):
 * a manual batch, a handshake and an upload answered 500, through the real server's fault injection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setFaults } from '../../../test/helpers/api-kit';
import { eventually, getToken } from '../../../test/helpers/local-server';
import { censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { requestLog } from '../../server/local/request-log';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** The reason's last words: the trace id, and what it is for. */
const ENDS_WITH_TRACE = /\(trace id ([0-9a-f]{32}): give it to support if this goes on\)$/;

/** Trace ids of the server's 500 answers on paths matching the SQL LIKE `pattern`. */
function failedTraces(e: QueueEnv, pattern: string): string[] {
  requestLog(e.server.ctx)?.flush();
  return (e.server.ctx.db.prepare('SELECT trace_id FROM request_log WHERE path LIKE ? AND status = 500').all(pattern) as { trace_id: string }[])
    .map((row) => row.trace_id);
}

async function failWith500(e: QueueEnv, pathPrefix: string): Promise<void> {
  await setFaults(e.server.url, await getToken(e.server.url), [{ pathPrefix, errorRate: 1, errorStatus: 500 }]);
}

describe('trace ids in the reasons of service failures', () => {
  it('ends the error of a batch the service answered 500 with the trace id of that answer', async () => {
    env = await startQueueEnv();
    const queue = env.queue();
    await queue.start();
    await failWith500(env, '/law/api/v1/census');
    const result = await queue.sendBatch('census', [
      { lastName: 'Lima', firstName: 'Maria', employeeRegistration: 'BR-002', hireDate: '2024-11-18', employeeStatus: 'ACTIVE' },
    ]);
    // A 500 may come after the records were stored: the outcome is unknown (batch-failure.test.ts).
    expect(result.batch.state).toBe('unknown');
    expect(result.batch.error).toMatch(/^The service failed while taking the records: injected fault: /);
    const [, trace] = /\(trace id ([0-9a-f]{32}): give it to support if this goes on\)\. The service may have imported/.exec(result.batch.error ?? '') ?? [];
    expect(failedTraces(env, '/law/api/v1/census')).toContain(trace);
  });

  it('ends the waiting reason of a handshake answered 500 with its trace id', async () => {
    env = await startQueueEnv();
    await failWith500(env, '/law/api/v1/payroll-submissions');
    const queue = env.queue();
    const job = queue.add(await env.write('census-traced.csv', censusCsv('traced')))!;
    await queue.start();
    const waiting = await eventually(() => {
      const now = queue.job(job.id);
      return now?.state === 'waiting' && now.lastError ? now : undefined;
    });
    expect(waiting.lastError).toMatch(/^requesting an upload address failed: injected fault: /);
    const [, trace] = ENDS_WITH_TRACE.exec(waiting.lastError ?? '') ?? [];
    expect(failedTraces(env, '/law/api/v1/payroll-submissions')).toContain(trace);
  });

  it('ends the waiting reason of an upload answered 500 with its trace id', async () => {
    env = await startQueueEnv();
    await failWith500(env, '/uploads');
    const queue = env.queue();
    const job = queue.add(await env.write('census-put.csv', censusCsv('put')))!;
    await queue.start();
    const waiting = await eventually(() => {
      const now = queue.job(job.id);
      return now?.state === 'waiting' && now.resumeState === 'uploading' && now.lastError ? now : undefined;
    });
    expect(waiting.lastError).toMatch(/^the upload failed: injected fault: /);
    const [, trace] = ENDS_WITH_TRACE.exec(waiting.lastError ?? '') ?? [];
    expect(failedTraces(env, '/uploads/%')).toContain(trace);
  });
});
