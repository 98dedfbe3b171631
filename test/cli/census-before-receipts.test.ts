/**
 * A payroll run exports its census (with the new hires) and its receipt file at the same moment. The service checks
 * each receipt against the census imports it holds, in the order their data arrived (docs/service-decisions.md §3):
 * sent side by side, the small receipt file arrived first and every row of a new hire was refused, although the
 * census went out in the same run. A real `payroll-uploader watch --once`, a real local server, a census large enough
 * that its upload takes far longer than the receipt file's.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '../../shared';
import { censusChunks, csvText, receiptRow } from '../helpers/csv-fixtures';
import { runCli, uploaderEnv } from '../helpers/cli';
import { api, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';

describe('payroll-uploader watch --once: a census and its receipt file found together', () => {
  let server: TestServer;
  const dirs: string[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };

  it('uploads the census first, so every receipt of its new hires is accepted', async () => {
    const env = uploaderEnv(await folder('payroll-data-'));
    const dir = await folder('payroll-watched-');
    // About 30 MB: its upload and processing take far longer than the receipt file's few bytes.
    const out = createWriteStream(join(dir, 'census-2026-05-09.csv'));
    for (const chunk of censusChunks(30 * 1024 * 1024)) if (!out.write(chunk)) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    // Receipts of three employees the service learns of from this census only.
    await writeFile(join(dir, 'receipt-2026-05-09.csv'), csvText('receipt', [receiptRow(0), receiptRow(1), receiptRow(2)]));

    const run = await runCli(['watch', dir, '--base-url', server.url, '--once', '--json'], env);
    expect(run.stderr).not.toMatch(/failed/);
    expect(run.code).toBe(0);
    // While the census was on its way, the Queue said why the receipt file waited.
    const events = run.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { event: string; data: Record<string, unknown> });
    expect(events.some((e) => e.event === 'job' && e.data.name === 'receipt-2026-05-09.csv' && e.data.state === 'waiting'
      && /^waits for census-2026-05-09\.csv to be uploaded first/.test(String(e.data.lastError)))).toBe(true);

    const token = await getToken(server.url);
    const imports = server.ctx.db.prepare('SELECT id, file_name, seq FROM imports WHERE file_name IS NOT NULL ORDER BY seq').all() as
      { id: string; file_name: string; seq: number }[];
    // The receipt file's upload was complete after the census's: it arrived, and is processed, after it.
    expect(imports.map((i) => i.file_name)).toEqual(['census-2026-05-09.csv', 'receipt-2026-05-09.csv']);
    const finished = (id: string) => eventually(async () => {
      const result = (await api(server.url, token, 'GET', `/local/v1/imports/${id}`)).body as ImportResult;
      return result.status === 'PROCESSED' || result.status === 'REJECTED' ? result : undefined;
    }, 120_000);
    expect(await finished(imports[0]!.id)).toMatchObject({ status: 'PROCESSED', rejectedRecords: 0 });
    expect(await finished(imports[1]!.id)).toMatchObject({ status: 'PROCESSED', acceptedRecords: 3, rejectedRecords: 0, errors: [] });
  }, 240_000);
});
