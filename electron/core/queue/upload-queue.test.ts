import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/helpers/local-server';
import { censusCsv, md5Of, receiptCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { NOT_UTF8_REASON } from '../../lib/csv';
import { localDay } from './file-facts';
import type { Job } from './job-types';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const importStatus = (e: QueueEnv, md5: string) => {
  const [file] = e.serverFiles(md5);
  if (!file) return undefined;
  const row = e.server.ctx.db.prepare('SELECT status, accepted, rejected FROM imports WHERE id = ?').get(file.import_id) as
    { status: string; accepted: number; rejected: number } | undefined;
  return row?.status === 'PROCESSED' || row?.status === 'REJECTED' ? row : undefined;
};

describe('upload queue against the local server', () => {
  it('uploads a census and a receipt file, archives them under uploaded/<day>/, and the server processes them', async () => {
    env = await startQueueEnv();
    const queue = env.queue();
    const states: string[] = [];
    queue.on('job', (job) => states.push(`${job.name}:${job.state}`));
    // The receipt's employee is made known first: the two files are uploaded side by side, and the server may process
    // the receipt before the census file (it refuses receipts of employees no processed census carried).
    const known = await env.api.sendBatch('census', [
      { lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'R-1', hireDate: '2020-01-31', employeeStatus: 'ACTIVE' },
    ]);
    await eventually(async () => ((await env!.api.getImport(known.id)).status === 'PROCESSED' ? true : undefined));
    const census = censusCsv('C', 3);
    const receipt = receiptCsv('7', 'R-1');
    const a = queue.add(await env.write('census-2026-03-15.csv', census));
    const b = queue.add(await env.write('receipt.csv', receipt));
    await queue.start();
    const [ja, jb] = [await env.finished(queue, a!.id), await env.finished(queue, b!.id)];

    const day = localDay(ja.uploadedAt!);
    expect(ja).toMatchObject({ state: 'uploaded', fileType: '1', referenceDate: '2026-03-15T00:00:00Z', md5: md5Of(census) });
    expect(jb).toMatchObject({ state: 'uploaded', fileType: '2', referenceDate: `${jb.foundDay}T00:00:00Z`, md5: md5Of(receipt) });
    expect(await env.tree()).toEqual([`uploaded/${day}/census-2026-03-15.csv`, `uploaded/${day}/receipt.csv`]);
    expect(await readFile(join(env.folder, 'uploaded', day, 'receipt.csv'), 'utf8')).toBe(receipt);
    expect(states.filter((s) => s.startsWith('census'))).toEqual(
      ['found', 'hashing', 'granting', 'uploading', 'uploading', 'uploaded', 'uploaded', 'uploaded'].map((s) => `census-2026-03-15.csv:${s}`),
    );
    expect(await eventually(() => importStatus(env!, md5Of(census)))).toMatchObject({ status: 'PROCESSED', accepted: 3, rejected: 0 });
    expect(await eventually(() => importStatus(env!, md5Of(receipt)))).toMatchObject({ status: 'PROCESSED', accepted: 1 });
    expect(queue.failures()).toEqual([]);
    await queue.idle();
    expect(queue.isIdle()).toBe(true);
  });

  it('sends a job queued before any client was set as the first client set, and never one queued as another client', async () => {
    env = await startQueueEnv();
    const service = { profile: 'sandbox', baseUrl: env.server.url };
    const before = env.queue({ service });
    const early = before.add(await env.write('census-early.csv', censusCsv('early')))!;
    await before.stop();
    const other = env.queue({ service: { ...service, clientId: 'other-employer' } });
    const theirs = other.add(await env.write('census-theirs.csv', censusCsv('theirs')))!;
    await other.stop();
    expect(early.clientId).toBeUndefined();

    const queue = env.queue({ service: { ...service, clientId: 'test-client' } });
    await queue.start();
    await queue.idle();
    expect(queue.job(early.id)).toMatchObject({ clientId: 'test-client', state: 'uploaded' });
    expect(queue.job(early.id)?.archivedAt).toBeDefined();
    expect(queue.job(theirs.id)).toMatchObject({ clientId: 'other-employer', state: 'found' });
    expect(env.serverFiles(md5Of(censusCsv('theirs')))).toEqual([]);
    await queue.stop();
  });

  it('sends 20 files found together in one handshake POST', async () => {
    env = await startQueueEnv();
    const queue = env.queue();
    const jobs: Job[] = [];
    for (let i = 0; i < 20; i += 1) jobs.push(queue.add(await env.write(`census-${i}.csv`, censusCsv(`B${i}`)))!);
    await queue.start();
    for (const job of jobs) expect((await env.finished(queue, job.id)).state).toBe('uploaded');
    expect(env.requests('/law/api/v1/payroll-submissions').map((r) => r.status)).toEqual([201]);
    expect(env.requests('/uploads/%').filter((r) => r.status === 200)).toHaveLength(20);
  });

  it('ignores a file version it already knows, and takes a new version of the same path as the same job', async () => {
    env = await startQueueEnv();
    const queue = env.queue();
    const first = await env.write('census.csv', censusCsv('V1'));
    const job = queue.add(first)!;
    expect(queue.add(first)).toBeUndefined();
    const second = await env.write('census.csv', censusCsv('V2', 3));
    expect(queue.add({ ...second, mtimeMs: second.mtimeMs + 1 })?.id).toBe(job.id);
    await queue.start();
    const done = await env.finished(queue, job.id);
    expect(done).toMatchObject({ state: 'uploaded', md5: md5Of(censusCsv('V2', 3)) });
    expect(queue.jobs()).toHaveLength(1);
  });

  it('moves a second copy of an uploaded file to duplicates/, also when both are found together', async () => {
    env = await startQueueEnv();
    const queue = env.queue();
    const content = censusCsv('D');
    const a = queue.add(await env.write('census-a.csv', content))!;
    const b = queue.add(await env.write('census-b.csv', content))!;
    await queue.start();
    expect(await env.finished(queue, a.id)).toMatchObject({ state: 'uploaded' });
    const dup = await env.finished(queue, b.id);
    expect(dup.state).toBe('duplicate');
    expect(dup.lastError).toMatch(/already uploaded/);
    const c = queue.add(await env.write('census-c.csv', content))!;
    expect(await env.finished(queue, c.id)).toMatchObject({ state: 'duplicate' });
    const day = localDay(queue.job(a.id)!.uploadedAt!);
    expect(await env.tree()).toEqual(['duplicates/census-b.csv', 'duplicates/census-c.csv', `uploaded/${day}/census-a.csv`]);
    expect(env.serverFiles(md5Of(content)).filter((f) => f.status === 'UPLOADED')).toHaveLength(1);
  });

  it('uploads with row warnings in warn mode, refuses them in block mode', async () => {
    env = await startQueueEnv({}, { preflight: 'warn' });
    const queue = env.queue();
    const content = `${censusCsv('W', 1)}Roe,Jim,W-9,2026-02-30,ACTIVE\n`;
    const job = queue.add(await env.write('census.csv', content))!;
    await queue.start();
    const done = await env.finished(queue, job.id);
    expect(done).toMatchObject({ state: 'uploaded', warningCount: 1, warnings: [{ line: 3, field: 'hireDate' }] });

    env.settings.preflight = 'block';
    const blocked = queue.add(await env.write('census-2.csv', `${censusCsv('W2', 1)}Roe,Jim,W-9,2026-02-30,ACTIVE\n`))!;
    const refused = await env.finished(queue, blocked.id);
    expect(refused).toMatchObject({ state: 'rejected', warningCount: 1 });
    const text = await readFile(`${refused.archivedPath!}.error.txt`, 'utf8');
    // Named as the clerk finds it on the Settings screen first, then as the settings file spells it.
    expect(text).toContain('row problems block uploads (Settings, "Checking rows before upload": Block; "preflight": "block" in the settings file)');
    expect(text).toContain('line 3: hireDate');
  });

  it('with preflight off uploads without parsing every row, yet refuses a file that is not UTF-8 at its end', async () => {
    env = await startQueueEnv({}, { preflight: 'off' });
    const queue = env.queue();
    await queue.start();
    // A quote never closed after the first row: the service's processing refuses it, the uploader no longer reads that far.
    const broken = `${censusCsv('OFF', 50)}"Roe,Jim,OFF-x,2020-01-31,ACTIVE\n`;
    const sent = await env.finished(queue, queue.add(await env.write('census-off.csv', broken))!.id);
    expect(sent).toMatchObject({ state: 'uploaded', warningCount: 0, md5: md5Of(broken) });
    const latin1 = Buffer.concat([Buffer.from(censusCsv('OFF2', 50)), Buffer.from('Do\xe9,Jane,OFF2-x,2020-01-31,ACTIVE\n', 'latin1')]);
    const refused = await env.finished(queue, queue.add(await env.write('census-latin1.csv', latin1))!.id);
    expect(refused).toMatchObject({ state: 'rejected', lastError: NOT_UTF8_REASON });
  });
});
