/**
 * A receipt export without its header row (many payroll systems export so): its first data row is read as the header.
 * End to end with a real `payroll-uploader watch`, a real local server, real files and a real journal: the file is
 * refused and the clerk told why, yet the first employee's name and SSN reach no output, note, journal or log, and
 * on the server neither the import's reason nor the request log.
 */
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, uploaderEnv } from '../helpers/cli';
import { finishedImport, grantFor, metadata, putFile } from '../helpers/file-handshake';
import { api, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { requestLog } from '../../electron/server/local/request-log';

/** Two employees' receipts, as the export writes them: no header row. */
const HEADERLESS = 'Quixwell,Marisol,123-45-6789,E-1001,2026-03-31,150.00\nBrandvold,Teodor,987-65-4321,E-1002,2026-03-31,90.00\n';
const PERSONAL = ['Quixwell', 'Marisol', '123-45-6789', 'Brandvold', 'Teodor', '987-65-4321', 'E-1001', '150.00'];
const SAID = /the first line is not the template's header row: none of its 6 cells names a column of the Census or Receipt template \(was the file exported without its header row\?\); export the file again with its header row/;

/** The personal values found in `text` (none, in a pass). */
const found = (text: string | Buffer) => PERSONAL.filter((p) => (typeof text === 'string' ? text.includes(p) : text.includes(Buffer.from(p))));

/** The personal values in each file under `dir` (the journal, its -wal, logs, notes), by file; files in `except` are skipped. */
async function personalInFiles(dir: string, except: (path: string) => boolean = () => false): Promise<Record<string, string[]>> {
  const seen: Record<string, string[]> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || except(path)) continue;
    const hits = found(await readFile(path).catch(() => Buffer.alloc(0)));
    if (hits.length) seen[path] = hits;
  }
  return seen;
}

describe('payroll-uploader watch: an export without its header row', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('is refused with the reason, and no output, note or journal byte holds the first row', async () => {
    const env = uploaderEnv(await folder('payroll-data-'), { PAYROLL_LOG_LEVEL: 'info' });
    const dir = await folder('payroll-watched-');
    await writeFile(join(dir, 'receipt_20260331.csv'), HEADERLESS);
    const isExport = (path: string) => path.endsWith('.csv');

    // A running watch: its journal still has its -wal beside it when the files are read.
    const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
    let stdout = '';
    watch.child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    try {
      const result = await eventually(() => watch.events.find((e) => e.event === 'result'), 60_000).catch((error: unknown) => {
        throw new Error(`${String(error)}; stderr: ${watch.stderr().slice(-2000)}`);
      });
      const note = await eventually(() => readFile(join(dir, 'rejected', 'receipt_20260331.csv.error.txt'), 'utf8').catch(() => undefined), 30_000);
      const journal = (await readdir(env.PAYROLL_DATA_DIR)).filter((f) => f.startsWith('upload-queue.sqlite'));
      expect(journal).toContain('upload-queue.sqlite-wal');
      // Where the first row could have gone: the job's last error, the note, every byte of the data folder (journal,
      // -wal, logs) and of the watched folder but the export itself.
      expect({
        lastError: found(String(result.data.lastError)), note: found(note),
        ...(await personalInFiles(env.PAYROLL_DATA_DIR)), ...(await personalInFiles(dir, isExport)),
      }).toEqual({ lastError: [], note: [] });
      expect(result.data).toMatchObject({ state: 'rejected' });
      expect(String(result.data.lastError)).toMatch(SAID);
      expect(note).toMatch(SAID);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
    expect({ stdout: found(stdout), stderr: found(watch.stderr()) }).toEqual({ stdout: [], stderr: [] });
    expect(stdout).toMatch(SAID);
    // The export itself is kept as it was, for the clerk to export again.
    expect(await readFile(join(dir, 'rejected', 'receipt_20260331.csv'), 'utf8')).toBe(HEADERLESS);

    // The words a person reads: the refusal on standard error, and the log's WARN line.
    await writeFile(join(dir, 'receipt_20260401.csv'), HEADERLESS.replaceAll('2026-03-31', '2026-04-01'));
    const once = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(once.code).toBe(1);
    expect(found(once.stdout + once.stderr)).toEqual([]);
    expect(await personalInFiles(env.PAYROLL_DATA_DIR)).toEqual({});
    expect(await personalInFiles(dir, isExport)).toEqual({});
    expect(once.stderr).toMatch(/WARN .*receipt_20260401\.csv: rejected: /);
    expect(once.stderr).toMatch(/rejected +receipt_20260401\.csv: /);
    expect(once.stderr).toMatch(SAID);
  }, 180_000);

  it('sent to the service all the same, its import reason and the request log do not hold the first row', async () => {
    const token = await getToken(server.url);
    const grant = await grantFor(server.url, token, metadata(HEADERLESS, { fileType: '2', fileName: 'receipt_20260331.csv', referenceDate: '2026-03-31T00:00:00Z' }));
    expect((await putFile(grant.uploadUrl, HEADERLESS)).status).toBe(200);
    const done = await finishedImport(server, grant.uploadUrl);
    expect(done.status).toBe('REJECTED');
    const shown = await api(server.url, token, 'GET', `/local/v1/imports/${done.id}`);
    requestLog(server.ctx)?.flush();
    const logged = await api(server.url, token, 'GET', '/local/v1/requests?limit=100');
    expect(logged.status).toBe(200);
    // The request log holds the answer that gave the reason; none of the three quotes the first row.
    expect(JSON.stringify(logged.body)).toContain(`/local/v1/imports/${done.id}`);
    expect({ reason: found(done.reason ?? ''), answer: found(JSON.stringify(shown.body)), requestLog: found(JSON.stringify(logged.body)) })
      .toEqual({ reason: [], answer: [], requestLog: [] });
    expect(done.reason).toMatch(SAID);
    expect((shown.body as { reason?: string }).reason).toMatch(SAID);
  }, 60_000);
});
