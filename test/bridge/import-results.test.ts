/**
 * What the local test server made of each import, kept in the journal: a batch or file processed with records refused
 * is more than "sent". Real local servers over HTTP (one as the Local environment, one as Sandbox), the bridge
 * handlers on a real session, journal and watched folder.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../electron/core/queue';
import { loggedRequests } from '../helpers/api-kit';
import { censusRow, csvText, receiptRow } from '../helpers/csv-fixtures';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

const UNKNOWN = /employeeRegistration E-ACC-1 is not known from any census import/;

describe('import results: what the local test server made of each file and batch', () => {
  let local: TestServer;
  let sandbox: TestServer;
  let engine: UiEngine;
  let watched: string;
  const batchResult = (id: number) => eventually(async () => {
    const { items } = await callOk(engine, 'batches.list', {});
    return items.find((batch) => batch.id === id && batch.importResult !== undefined);
  }, 30_000);
  // The log's rows are written a moment after each answer: flushed first, so a row still on its way is counted too.
  const importsAsked = (server: TestServer) => loggedRequests(server, '/local/v1/imports/%').length;

  beforeAll(async () => {
    [local, sandbox] = await Promise.all([startTestServer(), startTestServer()]);
    watched = await tempDir('payroll-import-results-');
    engine = await startUiEngine({
      settings: {
        activeProfile: 'local', watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000,
        profiles: { local: { baseUrl: local.url }, sandbox: { baseUrl: sandbox.url } },
      },
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
    });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await Promise.all([local?.stop(), sandbox?.stop()]);
  });

  it('keeps a receipt batch\'s refusal in the journal: sent, and its one record refused for an unknown registration', async () => {
    const sent = await callOk(engine, 'batches.send', { kind: 'receipt', records: [receiptRow(1, { employeeRegistration: 'E-ACC-1' })] });
    expect(sent).toMatchObject({ ok: true, batch: { state: 'sent' } });
    const id = sent.ok ? sent.batch.id : 0;

    // The state stays the truth of the send (it arrived); what the service made of it is a second fact.
    const listed = await batchResult(id);
    expect(listed).toMatchObject({ state: 'sent', importResult: { status: 'PROCESSED', acceptedRecords: 0, rejectedRecords: 1, errorCount: 1 } });
    expect(listed.importErrors).toEqual([{ index: 0, field: 'employeeRegistration', message: expect.stringMatching(UNKNOWN) as string }]);

    // In the journal itself: a second connection to the file reads it back as kept.
    const journal = openJournal(engine.dataDir);
    try {
      expect(journal.batches().find((batch) => batch.id === id)).toMatchObject({
        state: 'sent', importResult: { status: 'PROCESSED', rejectedRecords: 1 },
        importErrors: [{ index: 0, field: 'employeeRegistration', message: expect.stringMatching(UNKNOWN) as string }],
      });
    } finally {
      journal.close();
    }
  }, 60_000);

  it('counts the records taken and refused of a batch the service took in part', async () => {
    expect(await callOk(engine, 'batches.send', { kind: 'census', records: [censusRow(7)] })).toMatchObject({ ok: true });
    const sent = await callOk(engine, 'batches.send', {
      kind: 'receipt', records: [receiptRow(7), receiptRow(8, { employeeRegistration: 'E-ACC-1' })],
    });
    const listed = await batchResult(sent.ok ? sent.batch.id : 0);
    expect(listed.importResult).toEqual({ status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 1, errorCount: 1 });
    expect(listed.importErrors).toMatchObject([{ index: 1, field: 'employeeRegistration' }]);
  }, 60_000);

  it('keeps an uploaded file\'s refused rows with their line numbers, through the same mechanism', async () => {
    await callOk(engine, 'watch.start');
    await writeFile(join(watched, 'receipts-march.csv'), csvText('receipt', [receiptRow(7), receiptRow(9, { employeeRegistration: 'E-ACC-1' })]));
    const job = await eventually(async () => {
      const { items } = await callOk(engine, 'jobs.query', { finished: true, text: 'receipts-march' });
      return items.find((item) => item.importResult !== undefined);
    }, 60_000);
    expect(job).toMatchObject({ outcome: 'uploaded', importResult: { status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 1, errorCount: 1 } });
    // The list carries the counts; the reasons come with the file's details.
    expect(job).not.toHaveProperty('importErrors');
    const detail = await callOk(engine, 'jobs.get', { id: job.id });
    expect(detail.importErrors).toEqual([{ line: 3, field: 'employeeRegistration', message: expect.stringMatching(UNKNOWN) as string }]);
  }, 90_000);

  it('asks nothing of a service that is not the Local environment\'s: a batch sent to Sandbox stays as it was', async () => {
    await callOk(engine, 'profile.switch', { profile: 'sandbox' });
    const elsewhere = await callOk(engine, 'batches.send', { kind: 'receipt', records: [receiptRow(10, { employeeRegistration: 'E-ACC-1' })] });
    expect(elsewhere).toMatchObject({ ok: true });
    // Back on Local, a batch's result comes as before; the one sent to Sandbox never gets one.
    await callOk(engine, 'profile.switch', { profile: 'local' });
    const after = await callOk(engine, 'batches.send', { kind: 'receipt', records: [receiptRow(11, { employeeRegistration: 'E-ACC-1' })] });
    await batchResult(after.ok ? after.batch.id : 0);
    const { items } = await callOk(engine, 'batches.list', {});
    expect(items.find((batch) => elsewhere.ok && batch.id === elsewhere.batch.id)).not.toHaveProperty('importResult');
    expect(importsAsked(sandbox)).toBe(0);
    expect(importsAsked(local)).toBeGreaterThan(0);
  }, 60_000);
});
