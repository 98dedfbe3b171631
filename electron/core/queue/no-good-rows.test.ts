/**
 * A file none of whose rows the service could accept is refused locally, whatever the preflight setting (but off,
 * which checks no rows): uploading it would only show it as uploaded while the service imports nothing.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { RECEIPT_HEADER, censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** A receipt export written with decimal commas, as a spreadsheet set to Portuguese saves it: no amount is valid. */
const commaReceipts = [
  RECEIPT_HEADER.replaceAll(',', ';'),
  'Souza;Joao;123-45-6789;BR-001;2026-04-30;2500,00',
  'Lima;Maria;987-65-4321;BR-002;2026-04-30;1.234,56',
  '',
].join('\n');

describe('a file with no row the service can accept', () => {
  it('is refused and filed under rejected/ with every row problem, never uploaded (preflight warn, the default)', async () => {
    env = await startQueueEnv();
    const queue = env.queue();
    await queue.start();
    const job = queue.add(await env.write('receipt-2026-04-30.csv', commaReceipts))!;
    const done = await env.finished(queue, job.id);
    expect(done).toMatchObject({ state: 'rejected', warningCount: 2 });
    expect(done.lastError).toMatch(/^none of the 2 rows can be accepted/);
    expect(await env.tree()).toEqual(['rejected/receipt-2026-04-30.csv', 'rejected/receipt-2026-04-30.csv.error.txt']);
    const text = await readFile(`${done.archivedPath!}.error.txt`, 'utf8');
    expect(text).toContain('none of the 2 rows can be accepted');
    expect(text).toMatch(/line 2: amount/);
    expect(text).toMatch(/line 3: amount/);
    expect(env.requests('/law/api/v1/payroll-submissions')).toEqual([]);
    expect(env.serverFiles(md5Of(commaReceipts))).toEqual([]);
    expect(queue.failures().map((j) => j.id)).toEqual([job.id]);

    // One good row is enough for the service to import something: such a file is still uploaded, with its warnings.
    const mixed = `${censusCsv('one-good', 1)}Roe,Jim,bad-1,2026-02-30,ACTIVE\n`;
    const sent = await env.finished(queue, queue.add(await env.write('census-mixed.csv', mixed))!.id);
    expect(sent).toMatchObject({ state: 'uploaded', warningCount: 1 });
  });

  it('is refused for having no good row also when row problems block uploads', async () => {
    env = await startQueueEnv({}, { preflight: 'block' });
    const queue = env.queue();
    await queue.start();
    const done = await env.finished(queue, queue.add(await env.write('receipt-block.csv', commaReceipts))!.id);
    expect(done).toMatchObject({ state: 'rejected', warningCount: 2 });
    expect(done.lastError).toMatch(/^none of the 2 rows can be accepted/);
  });
});
