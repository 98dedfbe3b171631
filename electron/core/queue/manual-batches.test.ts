import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { BatchValidationError } from './manual-batches';
import type { UploadQueue } from './upload-queue';

let env: QueueEnv;
let queue: UploadQueue;
beforeAll(async () => {
  env = await startQueueEnv();
  queue = env.queue();
  await queue.start();
});
afterAll(async () => {
  await env.close();
});

const person = (registration: string) => ({
  lastName: 'Silva', firstName: 'Ana', employeeRegistration: registration, hireDate: '2024-03-01', employeeStatus: 'ACTIVE',
});

describe('manual JSON batches', () => {
  it('refuses bad records before sending anything, naming index and field', async () => {
    const error = await queue.sendBatch('census', [person('A1'), { ...person('A2'), hireDate: '2024-02-30' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchValidationError);
    expect((error as BatchValidationError).messages).toEqual(['[1].hireDate: must be a real calendar date YYYY-MM-DD']);
    await expect(queue.sendBatch('census', [])).rejects.toThrow(/at least one record/);
    expect(queue.batches()).toEqual([]);
    expect(env.requests('/law/api/v1/census')).toEqual([]);
  });

  it('journals a sent batch with its import id', async () => {
    const result = await queue.sendBatch('census', [person('B1'), person('B2')]);
    expect(result.batch).toMatchObject({ kind: 'census', records: 2, state: 'sent', importId: result.created?.id });
    expect(queue.batches()[0]).toEqual(result.batch);
  });

  it('keeps the service refusal of a batch as its error', async () => {
    const result = await queue.sendBatch('census', [person('C1'), person('C1')]);
    expect(result.batch).toMatchObject({ state: 'failed', error: expect.stringMatching(/C1/) as string });
    expect(result.created).toBeUndefined();
  });
});
