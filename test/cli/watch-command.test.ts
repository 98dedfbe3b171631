/** The headless command end to end: real CLI processes, a real local server, real files, real journal. */
import { createWriteStream } from 'node:fs';
import { chmod, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { censusChunks, md5 } from '../helpers/csv-fixtures';
import { OBEYING_FILE_MODES, runCli, startCli, uploaderEnv } from '../helpers/cli';
import type { TestServer } from '../helpers/local-server';
import { api, eventually, getToken, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv, receiptCsv } from '../helpers/queue-kit';

/** The name of the dated archive folder for `d` (its local date), as the uploader names it. */
const day = (d = new Date()) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * The paths with a dated archive folder of a day from `since` to now written `uploaded/DAY/`: a run that crosses
 * midnight files into the next day's folder. A folder of any other date is left as it is.
 */
const dated = (files: string[], since: Date) => {
  const days = new Set([day(since), day()]);
  return files.map((f) => f.replace(/^uploaded\/([^/]+)\//, (whole, d: string) => (days.has(d) ? 'uploaded/DAY/' : whole)));
};

async function listFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

describe('payroll-uploader watch, send and deliveries', () => {
  let server: TestServer;
  let dirs: string[] = [];
  let env: NodeJS.ProcessEnv;
  const folder = async () => {
    const dir = await tempDir('payroll-watch-');
    dirs.push(dir);
    return dir;
  };
  /** The one value of a one-column query (libsql's pluck() does not pluck). */
  const value = (sql: string, ...args: unknown[]) => Object.values(server.ctx.db.prepare(sql).get(...args) as Record<string, unknown>)[0];
  const uploadedCount = (checksum: string) => value("SELECT count(*) FROM files WHERE checksum = ? AND status = 'UPLOADED'", checksum) as number;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });
  const freshEnv = async () => {
    env = uploaderEnv(await folder());
    return env;
  };

  it('watch --once uploads census and receipt files, files them away and exits 0', async () => {
    const since = new Date();
    await freshEnv();
    const dir = await folder();
    const census = censusCsv('once-ok');
    await writeFile(join(dir, 'census-2026-03-31.csv'), census);
    await writeFile(join(dir, 'receipt_20260331.csv'), receiptCsv('7', 'once-ok-0'));
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(res.stderr).not.toMatch(/failed/);
    expect(res.code).toBe(0);
    expect(dated(await listFiles(dir), since)).toEqual(['uploaded/DAY/census-2026-03-31.csv', 'uploaded/DAY/receipt_20260331.csv']);
    expect(uploadedCount(md5(census))).toBe(1);
    const row = server.ctx.db.prepare("SELECT reference_date FROM files WHERE checksum = ?").get(md5(census)) as { reference_date: string };
    expect(row.reference_date).toBe('2026-03-31T00:00:00Z');
  }, 120_000); // the first CLI start of the file also compiles it (tsx): slow on a loaded 2-core machine

  it('watch --once exits 1 when a file is refused, with the reason beside it', async () => {
    await freshEnv();
    const dir = await folder();
    await writeFile(join(dir, 'census-empty.csv'), '');
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('census-empty.csv');
    expect(await listFiles(dir)).toEqual(['rejected/census-empty.csv', 'rejected/census-empty.csv.error.txt']);
  });

  it('prints a file name with a bidi override and a line break escaped, in its output and its .error.txt', async () => {
    await freshEnv();
    const dir = await folder();
    // Linux allows both in a name; printed raw, the name would read "census-vsc.csv" and forge a second line.
    const name = 'census-\u202evsc\nforged.csv';
    await writeFile(join(dir, name), censusCsv('bidi-name'));
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    const output = res.stdout + res.stderr;
    expect(output).toContain('census-\\u202evsc\\u000aforged.csv');
    expect(output).not.toContain('\u202e');
    expect(output).not.toContain('vsc\nforged');
    const errorFiles = (await listFiles(dir)).filter((f) => f.endsWith('.error.txt'));
    expect(errorFiles).toHaveLength(1);
    for (const f of errorFiles) {
      const text = await readFile(join(dir, f), 'utf8');
      expect(text).toContain('census-\\u202evsc\\u000aforged.csv');
      expect(text).not.toContain('\u202e');
    }
  }, 60_000);

  it('watch --env local starts the embedded local server through the session, shows processing results, and keeps its address', async () => {
    await freshEnv();
    const dir = await folder();
    await writeFile(join(dir, 'census-embedded-1.csv'), censusCsv('embedded-1'));
    const first = await runCli(['watch', dir, '--env', 'local', '--once'], env);
    expect(first.stderr).not.toMatch(/failed/);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/processed census-embedded-1\.csv \(import [^)]+\): 2 row\(s\) accepted, 0 refused/);
    const settingsFile = join(env.PAYROLL_DATA_DIR as string, 'settings.json');
    const local = () => readFile(settingsFile, 'utf8').then((text) => (JSON.parse(text) as { profiles: { local: { baseUrl: string; clientId: string } } }).profiles.local);
    const pointed = await local();
    expect(pointed.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(pointed.clientId).toBe('payroll-uploader-app');
    // The next run listens on the same address when it is free: the Local profile stays valid between runs.
    await writeFile(join(dir, 'census-embedded-2.csv'), censusCsv('embedded-2'));
    const second = await runCli(['watch', dir, '--env', 'local', '--once'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/processed census-embedded-2\.csv/);
    expect((await local()).baseUrl).toBe(pointed.baseUrl);
    expect((await listFiles(dir)).filter((f) => f.startsWith('uploaded/'))).toHaveLength(2);
  }, 120_000);

  it('takes 20 files dropped at once, each uploaded exactly once, sharing handshakes', async () => {
    const since = new Date();
    await freshEnv();
    const dir = await folder();
    const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
    try {
      const contents = Array.from({ length: 20 }, (_, i) => censusCsv(`twenty-${i}`));
      const before = value("SELECT count(*) FROM request_log WHERE path = '/law/api/v1/payroll-submissions'") as number;
      await Promise.all(contents.map((c, i) => writeFile(join(dir, `census-${i}.csv`), c)));
      await eventually(() => (watch.events.filter((e) => e.event === 'result').length === 20 ? true : undefined), 60_000);
      for (const c of contents) expect(uploadedCount(md5(c))).toBe(1);
      expect(dated(await listFiles(dir), since).filter((f) => f.startsWith('uploaded/DAY/'))).toHaveLength(20);
      const posts = (value("SELECT count(*) FROM request_log WHERE path = '/law/api/v1/payroll-submissions'") as number) - before;
      expect(posts).toBeLessThan(20);
    } finally {
      watch.child.kill('SIGTERM');
      expect(await watch.exited).toBe(0);
    }
  });

  it('does not take a file while it is still being written over 5 s', async () => {
    await freshEnv();
    const dir = await folder();
    const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
    try {
      const path = join(dir, 'census-slow.csv');
      const out = createWriteStream(path);
      const content = censusCsv('slow', 20);
      const pieces = content.match(/[\s\S]{1,40}/g) ?? [];
      const started = Date.now();
      let lastWrite = 0;
      // One piece every 250 ms for 5 s; on a loaded machine the loop may get through fewer pieces than planned, so the
      // end writes every piece not written yet (the file is whole, whatever the timers did).
      let next = 0;
      for (; Date.now() - started < 5000; next++) {
        out.write(pieces[next] ?? '');
        lastWrite = Date.now();
        await new Promise((r) => setTimeout(r, 250));
      }
      out.end(pieces.slice(next).join(''));
      await once(out, 'finish');
      lastWrite = Date.now();
      const result = await eventually(() => watch.events.find((e) => e.event === 'result'), 30_000);
      const firstSeen = watch.events.find((e) => e.event === 'job');
      expect(Date.parse(firstSeen!.at)).toBeGreaterThanOrEqual(lastWrite);
      expect(result.data.state).toBe('uploaded');
      expect(uploadedCount(md5(content))).toBe(1);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  });

  it('watch --once does not wait forever for a file that keeps changing: it leaves it in place and exits 1', async () => {
    await freshEnv();
    const dir = await folder();
    const path = join(dir, 'census-growing.csv');
    await writeFile(path, `${censusCsv('growing', 1)}`);
    let i = 0;
    const writer = setInterval(() => void writeFile(path, censusCsv('growing', 2 + (i++ % 50))), 200);
    try {
      const res = await runCli(['watch', dir, '--base-url', server.url, '--once', '--max-wait', '3'], env);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('not taken');
    } finally {
      clearInterval(writer);
    }
    expect(await listFiles(dir)).toEqual(['census-growing.csv']);
  });

  it('watch --once says at once why a file it cannot read is not taken, instead of waiting for it as "still changing"', async () => {
    const since = new Date();
    await freshEnv();
    const dir = await folder();
    const locked = join(dir, 'census-locked.csv');
    await writeFile(locked, censusCsv('unreadable', 1));
    await chmod(locked, 0o000);
    await writeFile(join(dir, 'receipt_20260331.csv'), receiptCsv('7', 'unreadable-0'));
    // --max-wait far beyond the test's own time limit: the run must end because it knows, not because it waited.
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once', '--max-wait', '3600'], env, '', OBEYING_FILE_MODES);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/not taken: census-locked\.csv: it could not be read: another program keeps it locked, or this user may not read it \(EACCES\); it stays in place for the next run/);
    expect(res.stderr).not.toContain('still changing');
    await chmod(locked, 0o600);
    // The readable file went through; the unreadable one is where it was, untouched.
    expect(dated(await listFiles(dir), since)).toEqual(['census-locked.csv', 'uploaded/DAY/receipt_20260331.csv']);
    expect(await readFile(locked, 'utf8')).toBe(censusCsv('unreadable', 1));
  }, 60_000);

  it('watch says once that a file cannot be read, tries it again at each sweep without saying so again, and uploads it once it can be read', async () => {
    await freshEnv();
    const dir = await folder();
    await writeFile(join(env.PAYROLL_DATA_DIR!, 'settings.json'), JSON.stringify({ sweepIntervalMs: 1000, stabilityMs: 200 }));
    const locked = join(dir, 'census-locked-a-while.csv');
    const content = censusCsv('unreadable-a-while', 1);
    await writeFile(locked, content);
    await chmod(locked, 0o000);
    const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], { ...env, PAYROLL_LOG_LEVEL: 'debug' }, OBEYING_FILE_MODES);
    try {
      const saidUnreadable = () => watch.events.filter((e) => e.event === 'error' && String(e.data.message).includes('census-locked-a-while.csv'));
      const first = await eventually(() => saidUnreadable()[0], 30_000);
      expect(first.data.message).toBe('census-locked-a-while.csv cannot be read: another program keeps it locked, or this user may not read it (EACCES). It stays in the folder and is tried again regularly; close the program that holds it, or ask for read access to it.');
      // The next sweep's retries end either in a second warning or in the debug line that it is still unreadable.
      await eventually(() => saidUnreadable().length > 1 || watch.stderr().includes('census-locked-a-while.csv is still unreadable') || undefined, 30_000);
      expect(saidUnreadable()).toHaveLength(1);
      await chmod(locked, 0o600);
      const result = await eventually(() => watch.events.find((e) => e.event === 'result'), 30_000);
      expect(result.data.state).toBe('uploaded');
      expect(uploadedCount(md5(content))).toBe(1);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  }, 90_000);

  it('after a kill -9 in the middle of a 50 MB upload, a restart uploads it exactly once and archives it', async () => {
    const since = new Date();
    await freshEnv();
    const dir = await folder();
    const path = join(dir, 'census-big.csv');
    await writeFile(path, Buffer.concat([...censusChunks(50 * 1024 * 1024)]));
    const checksum = md5(Buffer.concat([...censusChunks(50 * 1024 * 1024)]));
    const token = await getToken(server.url);
    // Hold the PUT at the server for a while, so the kill lands while the body is in flight.
    expect((await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/uploads/', latencyMs: 4000 }])).status).toBe(200);
    const first = startCli(['watch', dir, '--base-url', server.url, '--json'], { ...env, PAYROLL_LOG_LEVEL: 'warn' });
    await eventually(() => first.events.find((e) => e.event === 'job' && e.data.state === 'uploading'), 60_000);
    await new Promise((r) => setTimeout(r, 500));
    first.child.kill('SIGKILL');
    await first.exited;
    expect((await api(server.url, token, 'DELETE', '/local/v1/faults')).status).toBeLessThan(300);
    expect(uploadedCount(checksum)).toBe(0);

    const second = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(second.stderr).not.toMatch(/failed/);
    expect(second.code).toBe(0);
    expect(uploadedCount(checksum)).toBe(1);
    expect(dated(await listFiles(dir), since)).toEqual(['uploaded/DAY/census-big.csv']);
    // Two runs over 50 MB each (read, hashed, sent, processed): a minute on a quiet machine is not one on a loaded one.
  }, 180_000);

  it('send posts a JSON batch and refuses invalid records without sending anything', async () => {
    await freshEnv();
    const dir = await folder();
    const good = join(dir, 'hire.json');
    await writeFile(good, JSON.stringify([{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'SEND-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]));
    const sent = await runCli(['send', 'census', good, '--base-url', server.url, '--json'], env);
    expect(sent.code).toBe(0);
    const created = (JSON.parse(sent.stdout) as { created: { id: string; status: string } }).created;
    expect(created.status).toBe('QUEUED');
    await eventually(() => (value('SELECT status FROM imports WHERE id = ?', created.id) === 'PROCESSED' ? true : undefined));

    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify([{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'SEND-2', hireDate: '2026-02-30', employeeStatus: 'ACTIVE' }]));
    const imports = () => value('SELECT count(*) FROM imports') as number;
    const before = imports();
    const refused = await runCli(['send', 'census', bad, '--base-url', server.url], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('[0].hireDate');
    expect(imports()).toBe(before);

    const notJson = join(dir, 'broken.json');
    await writeFile(notJson, '[{"lastName":');
    const broken = await runCli(['send', 'receipt', notJson, '--base-url', server.url], env);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('is not valid JSON');
  });

  it('deliveries lists the webhook attempts, and says clearly when the service is unreachable', async () => {
    await freshEnv();
    const listed = await runCli(['deliveries', '--base-url', server.url, '--json', '--limit', '5'], env);
    expect(listed.code).toBe(0);
    expect(Array.isArray(JSON.parse(listed.stdout))).toBe(true);
    // A bad flag value is a usage error (exit 2), caught before anything is sent.
    for (const value of ['9', '7', 'LOST']) {
      const bad = await runCli(['deliveries', '--base-url', server.url, '--status', value], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--status must be 1 \(PENDING\), 2 \(SUCCESS\) or 3 \(FAILED\)/);
    }
    const byName = await runCli(['deliveries', '--base-url', server.url, '--status', 'FAILED', '--json'], env);
    expect(byName.code).toBe(0);
    expect((JSON.parse(byName.stdout) as { status: number }[]).every((d) => d.status === 3)).toBe(true);
    const badLimit = await runCli(['deliveries', '--base-url', server.url, '--limit', '0'], env);
    expect(badLimit.code).toBe(2);
    const down = await runCli(['deliveries', '--base-url', 'http://127.0.0.1:9'], env);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/cannot reach/);
  });

  it('refuses a non-loopback plain-http address and a missing folder with clear messages', async () => {
    await freshEnv();
    const insecure = await runCli(['deliveries', '--base-url', 'http://example.com'], env);
    expect(insecure.code).not.toBe(0);
    expect(insecure.stderr).toMatch(/https/i);
    const missing = await runCli(['watch', join(await folder(), 'nope'), '--base-url', server.url, '--once'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('is not a folder');
  });
});
