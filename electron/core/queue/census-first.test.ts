/**
 * A census file goes before the receipt files found with it (census-first.ts): the service checks receipts against the
 * census imports it holds when it processes them, in the order their data arrived. Real queue, real local server
 * over HTTP, uploads failed by the server's own fault rules (a transient 503) to keep the census on its way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportResult } from '../../../shared';
import { setFaults } from '../../../test/helpers/api-kit';
import { api, eventually, getToken } from '../../../test/helpers/local-server';
import { CENSUS_HEADER, FAST_RETRY, censusCsv, receiptCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { requestLog } from '../../server/local/request-log';
import type { Job } from './job-types';
import type { UploadQueue } from './upload-queue';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** The upload address of a granted job, as the server's request log names it. */
const uploadPath = (job: Job | undefined) => new URL(job?.grantUrl ?? 'http://x/none').pathname;

/** PUTs as the server logged them (their address without its query), in the order they were answered. */
function puts(e: QueueEnv): { path: string; status: number }[] {
  return e.requests('/uploads/%').filter((r) => r.method === 'PUT').map((r) => ({ path: r.path.replace(/\?.*/, ''), status: r.status }));
}

/** The file names of each handshake the server took, in order, as the uploader listed them. */
function handshakes(e: QueueEnv): string[][] {
  requestLog(e.server.ctx)?.flush();
  const rows = e.server.ctx.db.prepare(
    "SELECT request_body FROM request_log WHERE method = 'POST' AND path LIKE '/law/api/v1/payroll-submissions%' ORDER BY id",
  ).all() as { request_body: string }[];
  return rows.map((r) => (JSON.parse(r.request_body) as { fileName: string }[]).map((item) => item.fileName));
}

async function processed(e: QueueEnv, token: string, importId: string): Promise<ImportResult> {
  return eventually(async () => {
    const result = (await api(e.server.url, token, 'GET', `/local/v1/imports/${importId}`)).body as ImportResult;
    return result.status === 'PROCESSED' || result.status === 'REJECTED' ? result : undefined;
  }, 60_000);
}

/** A census found with receipts, whose registrations the service learns from it. */
const census = censusCsv('hire', 3);
const receipts = receiptCsv('7', 'hire-2');
/** A census file with no good row: refused locally, it must hold nothing back. */
const noGoodRow = `${CENSUS_HEADER}\nDoe,Jane,,2020-01-31,ACTIVE\n`;

/** Adds the files in one go, as the watcher hands over what one sweep found (the receipt file listed first). */
async function foundTogether(e: QueueEnv, q: UploadQueue): Promise<{ bad: Job; receipt: Job; census: Job }> {
  const files = [
    await e.write('census-bad.csv', noGoodRow),
    await e.write('receipt-new-hires.csv', receipts),
    await e.write('census-new-hires.csv', census),
  ];
  const [bad, receipt, found] = files.map((file) => q.add(file));
  return { bad: bad!, receipt: receipt!, census: found! };
}

describe('a receipt file found with a census file', () => {
  it('does not begin its upload while that census waits to retry, says why, and goes once the census is uploaded', async () => {
    env = await startQueueEnv();
    const token = await getToken(env.server.url);
    await setFaults(env.server.url, token, [{ pathPrefix: '/uploads/', errorRate: 1 }]);
    const q = env.queue();
    await q.start();
    const { bad, receipt, census: c } = await foundTogether(env, q);

    // The census's uploads fail (a transient 503): it waits to retry, and the receipt file waits for it.
    await eventually(() => ((q.job(c.id)?.attempts ?? 0) >= 2 ? true : undefined), 30_000);
    const waiting = await eventually(() => {
      const job = q.job(receipt.id);
      return job?.state === 'waiting' && /census-new-hires/.test(job.lastError ?? '') ? job : undefined;
    }, 30_000);
    expect(waiting).toMatchObject({ resumeState: 'uploading', attempts: 0 });
    expect(waiting.nextAttemptAt).toBeUndefined();
    expect(waiting.lastError).toBe('waits for census-new-hires.csv to be uploaded first, so the service knows the employees it '
      + 'adds when it checks these receipts; it is sent as soon as that census file is uploaded');
    // The census refused locally (no good row) holds nothing back.
    expect(q.job(bad.id)?.state).toBe('rejected');
    // Granted in one handshake, census first, but never sent while the census was on its way.
    expect(handshakes(env)).toEqual([['census-new-hires.csv', 'receipt-new-hires.csv']]);
    expect(puts(env).filter((p) => p.path === uploadPath(waiting))).toEqual([]);
    expect(q.isIdle()).toBe(false);

    // The addresses the two were granted: the journal forgets an address once its file is uploaded.
    const censusPath = uploadPath(q.job(c.id));
    const receiptPath = uploadPath(waiting);
    await setFaults(env.server.url, token, []);
    const sent = await env.finished(q, receipt.id);
    expect(sent.state).toBe('uploaded');
    const log = puts(env);
    const censusArrived = log.findIndex((p) => p.path === censusPath && p.status === 200);
    const receiptPuts = log.flatMap((p, i) => (p.path === receiptPath ? [{ ...p, i }] : []));
    // One upload of the receipt file, begun after the census's upload was answered.
    expect(receiptPuts.map((p) => p.status)).toEqual([200]);
    expect(censusArrived).toBeGreaterThanOrEqual(0);
    expect(receiptPuts[0]!.i).toBeGreaterThan(censusArrived);
    expect(await processed(env, token, sent.importId!)).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 0 });
  }, 90_000);

  it('in a run that gives up (watch --once), waits with a census given up on: both count as failed and go, in order, in the next run', async () => {
    env = await startQueueEnv();
    const token = await getToken(env.server.url);
    await setFaults(env.server.url, token, [{ pathPrefix: '/uploads/', errorRate: 1 }]);
    const once = env.queue({ retry: { ...FAST_RETRY, giveUp: true, failAfter: 2 } });
    await once.start();
    const { receipt, census: c } = await foundTogether(env, once);

    await once.idle();
    // Nothing comes by itself: the run ends, and says the receipt file was not sent, and why.
    const failed = once.failures();
    expect(failed.map((job) => job.name).sort()).toEqual(['census-bad.csv', 'census-new-hires.csv', 'receipt-new-hires.csv']);
    const held = failed.find((job) => job.id === receipt.id);
    expect(held).toMatchObject({ state: 'waiting', resumeState: 'uploading' });
    expect(held?.lastError).toMatch(/^waits for census-new-hires\.csv to be uploaded first/);
    expect(puts(env).filter((p) => p.path === uploadPath(held))).toEqual([]);
    await once.stop();

    // The next run, with the service answering again: the census first, then its receipts, every row accepted.
    await setFaults(env.server.url, token, []);
    const next = env.queue({ retry: { ...FAST_RETRY, giveUp: true, failAfter: 2 } });
    await next.start();
    const sent = await env.finished(next, receipt.id);
    expect(sent.state).toBe('uploaded');
    expect((await env.finished(next, c.id)).state).toBe('uploaded');
    expect(await processed(env, token, sent.importId!)).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 0 });
  }, 90_000);
});
