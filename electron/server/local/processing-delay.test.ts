/**
 * A fault rule's processingDelayMs: imports created by the requests it matches stay QUEUED until the delay has passed
 * or the rule is removed or changed (rules cleared, or set without it), and imports accepted after them wait behind
 * them (arrival order). Real server over HTTP, real uploads.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ImportCreated, ImportResult } from '../../../shared';
import { setFaults } from '../../../test/helpers/api-kit';
import { censusRow, csvText, receiptRow } from '../../../test/helpers/csv-fixtures';
import { grantFor, metadata, putFile } from '../../../test/helpers/file-handshake';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, eventually, getToken, startTestServer } from '../../../test/helpers/local-server';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await getToken(server.url);
});
afterAll(async () => server.stop());
afterEach(async () => {
  expect((await api(server.url, token, 'DELETE', '/local/v1/faults')).status).toBe(204);
});

const census = (registration: string) => [
  { lastName: 'Silva', firstName: 'Ana', employeeRegistration: registration, hireDate: '2024-03-01', employeeStatus: 'ACTIVE' },
];

/** POSTs a batch, which must be accepted; returns its import id. */
const post = async (kind: 'census' | 'receipt', records: unknown[]) => {
  const res = await api(server.url, token, 'POST', `/law/api/v1/${kind}`, records);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as ImportCreated).id;
};

/** Grants and uploads a census file, which must be accepted; returns its import id. */
const upload = async (name: string, registration: number) => {
  const content = csvText('census', [censusRow(registration)]);
  const grant = await grantFor(server.url, token, metadata(content, { fileName: name }));
  const put = await putFile(grant.uploadUrl, content);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return put.body.importId as string;
};

const result = async (id: string) => {
  const res = await api(server.url, token, 'GET', `/local/v1/imports/${id}`);
  expect(res.status).toBe(200);
  return res.body as ImportResult;
};

const finished = (id: string) => eventually(async () => {
  const row = await result(id);
  return row.status === 'QUEUED' || row.status === 'PROCESSING' ? undefined : row;
});

/** Gives the processor time to have processed what it could, then waits until it has nothing left it may do now. */
const settle = async () => {
  await sleep(1000);
  await server.ctx.processor.idle();
};

describe('processingDelayMs', () => {
  it('keeps an upload QUEUED, and imports sent after it behind it, until the rules are cleared; then all are processed in order', async () => {
    await setFaults(server.url, token, [{ pathPrefix: '/uploads/', processingDelayMs: 600_000 }]);
    const file = await upload('census-held.csv', 901);
    // No rule on these paths: they are not delayed themselves, but they arrived after the held file.
    const batch = await post('census', census('HELD-1'));
    const receipt = await post('receipt', [receiptRow(901)]);
    await settle();
    for (const id of [file, batch, receipt]) expect((await result(id)).status, id).toBe('QUEUED');

    expect((await api(server.url, token, 'DELETE', '/local/v1/faults')).status).toBe(204);
    const [fileDone, batchDone, receiptDone] = await Promise.all([finished(file), finished(batch), finished(receipt)]);
    expect(fileDone).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 0 });
    expect(batchDone).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 0 });
    // The receipt's employee is known from the file: the file was processed before it, as it arrived before it.
    expect(receiptDone).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 0 });
    expect(String(fileDone.processedAt) <= String(batchDone.processedAt)).toBe(true);
  });

  it('answers a matching census POST 201 at once and keeps it QUEUED until its delay has passed', async () => {
    // Seconds enough that the read below comes before the delay's end on a loaded machine too.
    await setFaults(server.url, token, [{ pathPrefix: '/law/api/v1/census', processingDelayMs: 5_000 }]);
    const res = await api(server.url, token, 'POST', '/law/api/v1/census', census('DELAYED-1'));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'QUEUED', records: 1 });
    const id = (res.body as ImportCreated).id;
    // A batch this small is otherwise processed in the very write that records it.
    expect((await result(id)).status).toBe('QUEUED');
    expect(await finished(id)).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1 });
    // The rule is still set: only the delay ended the wait.
    expect((await api(server.url, token, 'GET', '/local/v1/faults')).body).toEqual([{ pathPrefix: '/law/api/v1/census', processingDelayMs: 5_000 }]);
  });

  it('ends the waits when the rules are replaced by a PUT without the rule', async () => {
    await setFaults(server.url, token, [{ pathPrefix: '/law/api/v1/census', processingDelayMs: 600_000 }]);
    const id = await post('census', census('REPLACED-1'));
    await settle();
    expect((await result(id)).status).toBe('QUEUED');
    await setFaults(server.url, token, [{ pathPrefix: '/law/api/v1/receipt', latencyMs: 1 }]);
    expect(await finished(id)).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1 });
  });

  it('keeps the waits while the rule stays in force, other rules added or its other effects changed; ends them when its delay changes', async () => {
    const delaying = { pathPrefix: '/law/api/v1/census', processingDelayMs: 600_000 };
    await setFaults(server.url, token, [delaying]);
    const id = await post('census', census('KEPT-1'));
    await settle();
    expect((await result(id)).status).toBe('QUEUED');

    // Another rule added, then the delaying rule given a latency too: the same path prefix and delay, so the same rule.
    await setFaults(server.url, token, [delaying, { pathPrefix: '/law/api/v1/receipt', latencyMs: 1 }]);
    await settle();
    expect((await result(id)).status).toBe('QUEUED');
    await setFaults(server.url, token, [{ ...delaying, latencyMs: 1 }]);
    await settle();
    expect((await result(id)).status).toBe('QUEUED');

    // Another delay is another rule: the wait the old one set ends.
    await setFaults(server.url, token, [{ ...delaying, processingDelayMs: 300_000 }]);
    expect(await finished(id)).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1 });
  });

  it('delays nothing when 0', async () => {
    await setFaults(server.url, token, [{ pathPrefix: '/law/api/v1/census', processingDelayMs: 0 }]);
    const id = await post('census', census('ZERO-1'));
    expect(await finished(id)).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1 });
  });
});
