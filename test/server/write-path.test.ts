/** The write path: small batches may be processed as they are recorded, but never ahead of what came before. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '../../shared';
import { censusRow, csvText, receiptRow } from '../helpers/csv-fixtures';
import { grantFor, metadata, putFile } from '../helpers/file-handshake';
import type { TestServer } from '../helpers/local-server';
import { api, eventually, getToken, startTestServer } from '../helpers/local-server';

const finished = (server: TestServer, token: string, id: string) => eventually(async () => {
  const r = (await api(server.url, token, 'GET', `/local/v1/imports/${id}`)).body as ImportResult;
  return r.status === 'PROCESSED' || r.status === 'REJECTED' ? r : undefined;
});

describe('the write path', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
  });
  afterAll(() => server.stop());

  it('a small batch sent while a census file is processed waits for it, so its employees are known', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => censusRow(i));
    const content = csvText('census', rows);
    const grant = await grantFor(server.url, token, metadata(content));
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
    // The last employee of the file: known only once the whole file is processed.
    const receipt = receiptRow(29_999);
    const posted = await api(server.url, token, 'POST', '/law/api/v1/receipt', [{ ...receipt, amount: Number(receipt.amount) }]);
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ status: 'QUEUED', records: 1 });
    const result = await finished(server, token, (posted.body as { id: string }).id);
    expect(result).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 0 });
  }, 60_000);

  it('a small batch on an idle server is processed at once, with the same results as a queued one', async () => {
    const census = await api(server.url, token, 'POST', '/law/api/v1/census',
      [{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E900001', hireDate: '2020-01-15', employeeStatus: 'ACTIVE' }]);
    expect(census.status).toBe(201);
    const receipts = await api(server.url, token, 'POST', '/law/api/v1/receipt', [
      { ...receiptRow(900_001), amount: 10 }, { ...receiptRow(900_002), amount: 11 },
    ]);
    const result = await finished(server, token, (receipts.body as { id: string }).id);
    expect(result).toMatchObject({ status: 'PROCESSED', records: 2, acceptedRecords: 1, rejectedRecords: 1 });
    expect(result.errors).toEqual([{ index: 1, field: 'employeeRegistration', message: expect.stringContaining('E900002 is not known') as unknown }]);
    expect(result.receivedAt <= (result.processedAt ?? '')).toBe(true);
  });
});
