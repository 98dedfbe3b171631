/**
 * Imports are processed in the order their data arrived (docs/service-decisions.md §3): a JSON batch when it is
 * recorded, a file when its upload completes, not when its address was granted. A crash in the middle must not
 * change that order: the real CLI process is killed (SIGKILL) while a large census file is processed, and started
 * again on the same data folder.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '../../shared';
import { censusChunks, csvText, receiptRow } from '../helpers/csv-fixtures';
import { grantFor, metadata, putFile } from '../helpers/file-handshake';
import type { CliServer } from '../helpers/local-server';
import { api, eventually, getToken, spawnServerCli, tempDir } from '../helpers/local-server';

const CLIENT = { id: 'acme', secret: 'acme-secret-value-1' };

describe('imports left unfinished by a crash', () => {
  let dir: string;
  const servers: CliServer[] = [];
  const start = async () => {
    const server = await spawnServerCli(['--port', '0', '--data-dir', dir, '--client', `${CLIENT.id}:${CLIENT.secret}`]);
    servers.push(server);
    return server;
  };
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('are processed after a restart in the order their data arrived, so receipts uploaded after their census file are known', async () => {
    const first = await start();
    const token = await getToken(first.url, CLIENT);
    const importOf = async (url: string, id: string) => (await api(url, token, 'GET', `/local/v1/imports/${id}`)).body as ImportResult;

    // The receipt file's address is granted first, but its file is uploaded last.
    const receipts = csvText('receipt', [receiptRow(1), receiptRow(2), receiptRow(3)]);
    const receiptGrant = await grantFor(first.url, token, metadata(receipts, { fileType: '2', fileName: 'receipts.csv' }));
    const big = Buffer.concat([...censusChunks(40 * 1024 * 1024)]);
    const censusGrant = await grantFor(first.url, token, metadata(big, { fileName: 'census.csv' }));
    const censusPut = await putFile(censusGrant.uploadUrl, big);
    expect(censusPut.status).toBe(200);
    const censusId = censusPut.body.importId as string;
    // A JSON receipt batch arrives while the census file is processed, and waits behind it.
    const batch = await api(first.url, token, 'POST', '/law/api/v1/receipt', [{
      lastName: 'Doe4', firstName: 'Jane', ssn: '123-45-6789', employeeRegistration: 'E000004', paymentDate: '2026-01-31', amount: 12.5,
    }]);
    expect(batch.status).toBe(201);
    const batchId = (batch.body as { id: string }).id;
    const receiptPut = await putFile(receiptGrant.uploadUrl, receipts);
    expect(receiptPut.status).toBe(200);
    const receiptId = receiptPut.body.importId as string;

    expect((await importOf(first.url, censusId)).status, 'the census file finished before the crash; make it larger').not.toMatch(/PROCESSED|REJECTED/);
    expect((await importOf(first.url, batchId)).status).toBe('QUEUED');
    expect((await importOf(first.url, receiptId)).status).toBe('QUEUED');
    await first.stop('SIGKILL');

    const second = await start();
    const finished = async (id: string) => eventually(async () => {
      const result = await importOf(second.url, id);
      return result.status === 'PROCESSED' || result.status === 'REJECTED' ? result : undefined;
    }, 120_000);
    const census = await finished(censusId);
    expect(census.status).toBe('PROCESSED');
    expect(census.rejectedRecords).toBe(0);
    // Both were checked after the census file, as a server that never stopped would have checked them.
    expect(await finished(batchId)).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 0, errors: [] });
    expect(await finished(receiptId)).toMatchObject({ status: 'PROCESSED', acceptedRecords: 3, rejectedRecords: 0, errors: [] });

    // A file is received when its upload completes, and the list's newest first is newest arrival first.
    const listed = (await api(second.url, token, 'GET', '/local/v1/imports')).body as ImportResult[];
    expect(listed.map((i) => i.id)).toEqual([receiptId, batchId, censusId]);
    const [receiptFile, jsonBatch, censusFile] = listed as [ImportResult, ImportResult, ImportResult];
    expect(Date.parse(censusFile.receivedAt)).toBeLessThanOrEqual(Date.parse(jsonBatch.receivedAt));
    expect(Date.parse(jsonBatch.receivedAt)).toBeLessThanOrEqual(Date.parse(receiptFile.receivedAt));
  });
});
