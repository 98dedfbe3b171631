/**
 * A processing result that comes after the run that sent the import stopped (the app closed meanwhile, a
 * `watch --once` whose wait ran out) or that the run never asks for (`payroll-uploader send`) is asked for when the
 * queue opens next, and kept: History shows it then. Real local server over HTTP (a fault rule delays the processing
 * of uploads until the test clears it, once the first run stopped), a real `send` process, two engines one after the
 * other on one real data folder, journal and watched folder.
 */
import { rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearFaults, queuedImports, setFaults } from '../helpers/api-kit';
import { runCli, uploaderEnv } from '../helpers/cli';
import { censusRow, csvText, receiptRow } from '../helpers/csv-fixtures';
import { TEST_CLIENT, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe('import results that come after the run that sent them stopped', () => {
  let local: TestServer;
  let token: string;
  let dataDir: string;
  let watched: string;
  const engines: UiEngine[] = [];

  beforeAll(async () => {
    local = await startTestServer();
    token = await getToken(local.url);
    [dataDir, watched] = await Promise.all([tempDir('payroll-results-later-data-'), tempDir('payroll-results-later-')]);
  });
  afterAll(async () => {
    if (local) await clearFaults(local.url, token);
    await Promise.all(engines.map((engine) => engine.stop()));
    await local?.stop();
    await Promise.all([dataDir, watched].map((dir) => rm(dir, { recursive: true, force: true })));
  });

  const engineOnTheDataFolder = async () => {
    const engine = await startUiEngine({
      dataDir,
      settings: {
        activeProfile: 'local', watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000,
        profiles: { local: { baseUrl: local.url } },
      },
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
    });
    engines.push(engine);
    return engine;
  };

  it('keeps, at the next start, the results of a batch and a file whose processing ended after the app closed', async () => {
    // The server takes uploads but does not process them until the first run has stopped (a delay of ten minutes, longer
    // than the test, which clearing the rule ends). The batch is not delayed: no rule is on its path.
    await setFaults(local.url, token, [{ pathPrefix: '/uploads/', processingDelayMs: 600_000 }]);

    // A batch sent by `payroll-uploader send`, which prints what the service said of the send and asks no result.
    const receipts = join(watched, '..', `${basename(watched)}-receipts.json`);
    await writeFile(receipts, JSON.stringify([receiptRow(1, { employeeRegistration: 'E-LATE-1' })]));
    const sent = await runCli(['send', 'receipt', receipts, '--env', 'local', '--base-url', local.url, '--json'], uploaderEnv(dataDir));
    await rm(receipts);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);

    const first = await engineOnTheDataFolder();
    const sentBatch = (await callOk(first, 'batches.list', {})).items;
    expect(sentBatch).toHaveLength(1);
    expect(sentBatch[0]).toMatchObject({ state: 'sent', kind: 'receipt' });
    const batchId = sentBatch[0]!.id;
    await callOk(first, 'watch.start');
    await writeFile(join(watched, 'census-late.csv'), csvText('census', [censusRow(21), censusRow(22)]));
    const uploaded = await eventually(async () => {
      const { items } = await callOk(first, 'jobs.query', { finished: true, text: 'census-late' });
      return items.find((item) => item.outcome === 'uploaded');
    }, 60_000);
    // The file is the one import held back.
    expect(await queuedImports(local.url, token)).toHaveLength(1);
    // The file not processed while this run lasted: nothing kept.
    expect(uploaded).not.toHaveProperty('importResult');
    await first.stop();
    engines.splice(0);

    // The file processed once the app had closed; the next start asks for both results as its queue opens.
    await clearFaults(local.url, token);
    const next = await engineOnTheDataFolder();
    const batch = await eventually(async () => {
      const { items } = await callOk(next, 'batches.list', {});
      return items.find((item) => item.id === batchId && item.importResult !== undefined);
    }, 30_000);
    expect(batch.importResult).toEqual({ status: 'PROCESSED', acceptedRecords: 0, rejectedRecords: 1, errorCount: 1 });
    const job = await eventually(async () => {
      const { items } = await callOk(next, 'jobs.query', { finished: true, text: 'census-late' });
      return items.find((item) => item.id === uploaded.id && item.importResult !== undefined);
    }, 30_000);
    expect(job.importResult).toEqual({ status: 'PROCESSED', acceptedRecords: 2, rejectedRecords: 0, errorCount: 0 });
  }, 120_000);
});
