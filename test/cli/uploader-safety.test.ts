/**
 * Issue 6 end to end: real `payroll-uploader` processes, real local servers, real folders and journals. Each test
 * reproduces one cause of a file called uploaded that the service does not hold, or of work sent to the wrong place.
 */
import { lstat, mkdir, readFile, readdir, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared';
import { runCli, startCli, uploaderEnv } from '../helpers/cli';
import { md5 } from '../helpers/csv-fixtures';
import type { TestServer } from '../helpers/local-server';
import { TEST_CLIENT, api, eventually, getToken, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { requestLog } from '../../electron/server/local/request-log';
import { CLAIMS_FOLDER, CLAIM_RECORDS, claimOwner } from '../../electron/core/queue/folder-claims';
import { mountSmallDisk } from '../helpers/small-disk';

async function listFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

describe('payroll-uploader: never "uploaded" unless the service holds the file, never the wrong service', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async (prefix = 'payroll-safety-') => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const envFor = async (extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> => uploaderEnv(await folder('payroll-data-'), extra);
  const uploaded = (srv: TestServer, checksum: string) =>
    Object.values(srv.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as object)[0] as number;
  const posts = (srv: TestServer) => {
    const row = srv.ctx.db.prepare("SELECT count(*) AS n FROM request_log WHERE path = '/law/api/v1/payroll-submissions'").get() as { n: number };
    return row.n;
  };
  const flushLog = (srv: TestServer) => requestLog(srv.ctx)?.flush();

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('a job queued for server A is only ever sent to A: send and a watch pointed at B leave it alone', async () => {
    const other = await startTestServer();
    try {
      const env = await envFor();
      const dir = await folder();
      const content = censusCsv('for-a-only');
      await writeFile(join(dir, 'census-for-a.csv'), content);
      const token = await getToken(server.url);
      // A is down for handshakes: the job stays queued for A.
      await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/law/api/v1/payroll-submissions', errorRate: 1, errorStatus: 503 }]);
      try {
        const first = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
        expect(first.code).toBe(1);
        expect(first.stderr).toContain('census-for-a.csv');
        // `send` to B sends its batch and never touches the file job.
        const batch = join(await folder(), 'hire.json');
        await writeFile(batch, JSON.stringify([{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'AB-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]));
        const sent = await runCli(['send', 'census', batch, '--base-url', other.url], env);
        expect(sent.code, sent.stderr).toBe(0);
        // A watch pointed at B (another folder) does not send it either, and says where it waits.
        const atB = await runCli(['watch', await folder(), '--base-url', other.url, '--once'], env);
        expect(atB.code, atB.stderr).toBe(0);
        expect(atB.stderr).toMatch(new RegExp(`1 file waits to be uploaded to another service, Local test server \\(${server.url.replace(/[.:/]/g, '\\$&')}, client ${TEST_CLIENT.id}\\): it is sent once uploads go to that service again`));
        expect(uploaded(other, md5(content))).toBe(0);
        expect(Object.values(other.ctx.db.prepare('SELECT count(*) FROM files').get() as object)[0]).toBe(0);
      } finally {
        await api(server.url, token, 'DELETE', '/local/v1/faults');
      }
      // Back at A: resumed (a fresh retry budget), uploaded to A once.
      const again = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/resuming 1 upload/);
      expect(again.stdout).toMatch(/uploaded\s+census-for-a\.csv/);
      expect(uploaded(server, md5(content))).toBe(1);
      expect(uploaded(other, md5(content))).toBe(0);
    } finally {
      await other.stop();
    }
  }, 180_000);

  it('watch --once gives every run its own retry budget across an outage', async () => {
    const env = await envFor();
    const dir = await folder();
    const content = censusCsv('outage');
    await writeFile(join(dir, 'census-outage.csv'), content);
    const token = await getToken(server.url);
    await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/law/api/v1/payroll-submissions', errorRate: 1, errorStatus: 503 }]);
    try {
      expect((await runCli(['watch', dir, '--base-url', server.url, '--once'], env)).code).toBe(1);
      flushLog(server);
      const before = posts(server);
      const second = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/failed: census-outage\.csv/);
      flushLog(server);
      // The second run tried again (a handshake is retried by the API client too, so several POSTs per try).
      expect(posts(server)).toBeGreaterThan(before);
    } finally {
      await api(server.url, token, 'DELETE', '/local/v1/faults');
    }
    const third = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(third.code, third.stderr).toBe(0);
    expect(uploaded(server, md5(content))).toBe(1);
  }, 240_000);

  it('one process per data folder: a second gets a clear message and exit 3; a lock left by kill -9 is taken over', async () => {
    const env = await envFor();
    const dir = await folder();
    const first = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
    try {
      await eventually(() => readFile(join(env.PAYROLL_DATA_DIR!, 'upload-queue.lock'), 'utf8').then((t) => (t.includes(String(first.child.pid)) ? true : undefined)), 30_000);
      const second = await runCli(['watch', await folder(), '--base-url', server.url, '--once'], env);
      expect(second.code).toBe(3);
      expect(second.stderr).toMatch(new RegExp(`another uploader \\(process ${first.child.pid} on .*\\) already uses this data folder`));
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }
    const content = censusCsv('after-kill');
    await writeFile(join(dir, 'census-after-kill.csv'), content);
    const third = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(third.code, third.stderr).toBe(0);
    expect(uploaded(server, md5(content))).toBe(1);
  }, 120_000);

  it('on Ctrl-C says what was interrupted, and the next start says what it resumes', async () => {
    const env = await envFor();
    const dir = await folder();
    const token = await getToken(server.url);
    await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/uploads/', latencyMs: 5_000 }]);
    const content = censusCsv('interrupted');
    try {
      const watch = startCli(['watch', dir, '--base-url', server.url], env);
      await writeFile(join(dir, 'census-interrupted.csv'), content);
      await eventually(() => server.ctx.db.prepare('SELECT 1 FROM files WHERE checksum = ?').get(md5(content)) ? true : undefined, 30_000);
      await new Promise((r) => setTimeout(r, 500));
      watch.child.kill('SIGINT');
      expect(await watch.exited).toBe(0);
      expect(watch.stderr()).toMatch(/interrupted: 1 file\(s\) not finished \(census-interrupted\.csv\); they resume at the next start/);
    } finally {
      await api(server.url, token, 'DELETE', '/local/v1/faults');
    }
    const again = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/resuming 1 upload from the last run/);
    expect(uploaded(server, md5(content))).toBe(1);
    expect(again.stdout.match(/uploaded\s+census-interrupted\.csv/g)).toHaveLength(1);
  }, 120_000);

  it('refuses a symbolic link to a file outside the folder: the link is moved to rejected/, its target never read', async () => {
    const env = await envFor();
    const dir = await folder();
    const outside = await folder('payroll-outside-');
    const secret = censusCsv('outside-the-folder');
    await writeFile(join(outside, 'census-private.csv'), secret);
    await symlink(join(outside, 'census-private.csv'), join(dir, 'census-link.csv'));
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/rejected\s+census-link\.csv: it is a symbolic link/);
    expect(await listFiles(dir)).toEqual(['rejected/census-link.csv', 'rejected/census-link.csv.error.txt']);
    expect((await lstat(join(dir, 'rejected/census-link.csv'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(dir, 'rejected/census-link.csv'))).toBe(join(outside, 'census-private.csv'));
    expect(await readFile(join(outside, 'census-private.csv'), 'utf8')).toBe(secret);
    expect(uploaded(server, md5(secret))).toBe(0);
  }, 60_000);

  it('a 403 for a missing scope is not retried: it names the scope, and the file is not refused', async () => {
    const limited = await startTestServer({ clients: [{ id: 'no-files', secret: 'no-files-secret-123', scopes: SCOPES.filter((s) => s !== 'submissions:write') }] });
    try {
      const env = await envFor({ PAYROLL_CLIENT_ID: 'no-files', PAYROLL_CLIENT_SECRET: 'no-files-secret-123' });
      const dir = await folder();
      await writeFile(join(dir, 'census-scope.csv'), censusCsv('scope'));
      const res = await runCli(['watch', dir, '--base-url', limited.url, '--once'], env);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/lacks the scope submissions:write/);
      flushLog(limited);
      expect(posts(limited)).toBe(1);
      expect((await listFiles(dir)).some((f) => f.startsWith('rejected/'))).toBe(false);
    } finally {
      await limited.stop();
    }
  }, 60_000);

  it('tells the clerk: row warnings with line numbers, <name>.warnings.txt, the processing result, non-CSV files once', async () => {
    const env = await envFor();
    const dir = await folder();
    const good = censusCsv('warned', 3);
    await writeFile(join(dir, 'census-warned.csv'), `${good}Doe,Jane,warned-bad,2020-02-30,ACTIVE\n`);
    await writeFile(join(dir, 'payroll.xlsx'), 'not a csv');
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once', '--env', 'local'], env);
    // A row of payroll data the service refused did not go in: the run failed for it (exit 1), said on standard error.
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toMatch(/uploaded\s+census-warned\.csv \(import [^)]+\)/);
    expect(res.stdout).toMatch(/1 row warning\(s\)/);
    expect(res.stdout).toMatch(/line 5: .*hireDate/);
    expect(res.stderr).toMatch(/processed census-warned\.csv \(import [^)]+\): 3 row\(s\) accepted, 1 refused; failed: 1 of its rows was not imported/);
    expect(res.stderr.match(/ignored: payroll\.xlsx is not a \.csv export/g)).toHaveLength(1);
    const files = await listFiles(dir);
    const warnings = files.find((f) => f.endsWith('census-warned.warnings.txt'));
    expect(warnings).toBeDefined();
    expect(await readFile(join(dir, warnings!), 'utf8')).toMatch(/line 5: .*hireDate/);
    // Each outcome is said once.
    expect(res.stdout.match(/uploaded\s+census-warned\.csv/g)).toHaveLength(1);
  }, 60_000);

  it('uses the watchedFolder setting when no folder is given; --version; a settings error names the file', async () => {
    const env = await envFor();
    const dir = await folder();
    await writeFile(join(env.PAYROLL_DATA_DIR!, 'settings.json'), JSON.stringify({ watchedFolder: dir }));
    const content = censusCsv('from-setting');
    await writeFile(join(dir, 'census-setting.csv'), content);
    const res = await runCli(['watch', '--base-url', server.url, '--once'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(uploaded(server, md5(content))).toBe(1);
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^payroll-uploader \d+\.\d+\.\d+\n$/);
    const bare = await envFor();
    const none = await runCli(['watch', '--once'], bare);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(join(bare.PAYROLL_DATA_DIR!, 'settings.json'));
    const sandbox = await runCli(['deliveries', '--env', 'sandbox'], bare);
    expect(sandbox.code).toBe(1);
    expect(sandbox.stderr).toContain(join(bare.PAYROLL_DATA_DIR!, 'settings.json'));
  }, 60_000);

  it('two uploaders on one shared folder, 200 files, one killed -9 mid-way: every file uploaded exactly once', async () => {
    const dir = await folder('payroll-shared-');
    const envs = [await envFor({ PAYROLL_CLAIM_TIMEOUT_S: '3' }), await envFor({ PAYROLL_CLAIM_TIMEOUT_S: '3' })];
    const token = await getToken(server.url);
    // A little latency on uploads, so the kill lands while files are claimed and in flight.
    await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/uploads/', latencyMs: 100 }]);
    const contents = Array.from({ length: 200 }, (_, i) => censusCsv(`shared-${i}`));
    const write = (from: number, to: number) => Promise.all(contents.slice(from, to).map((c, i) => writeFile(join(dir, `census-${from + i}.csv`), c)));
    const results = (p: { events: { event: string }[] }) => p.events.filter((e) => e.event === 'result').length;
    // The first uploader starts alone on half the files: whoever sees a burst first claims most of it, so on a busy
    // machine a second one started at the same moment could take everything before the first one had any work.
    const a = startCli(['watch', dir, '--base-url', server.url, '--json'], envs[0]);
    let b: ReturnType<typeof startCli> | undefined;
    try {
      await write(0, 100);
      await eventually(() => (results(a) >= 20 ? true : undefined), 120_000).catch((error: unknown) => {
        throw new Error(`${String(error)}; a: ${results(a)} results, ${a.stderr().slice(-1500)}`);
      });
      const second = startCli(['watch', dir, '--base-url', server.url, '--json'], envs[1]);
      b = second;
      await eventually(() => second.events.find((e) => e.event === 'folder' && (e.data as { state?: string }).state === 'watching'), 60_000);
      // Both race for the second half; once none is left unclaimed in the folder, one of them dies mid-way.
      await write(100, 200);
      await eventually(async () => ((await readdir(dir)).some((f) => f.endsWith('.csv')) ? undefined : true), 120_000, 100);
      a.child.kill('SIGKILL');
      await a.exited;
      // What the killed one held at that moment: claimed files that the survivor has to take over.
      const killed = claimOwner(envs[0]!.PAYROLL_DATA_DIR!);
      const held = (await readdir(join(dir, CLAIMS_FOLDER, killed), { withFileTypes: true }).catch(() => []))
        .filter((e) => !e.isDirectory()).map((e) => e.name);
      // A claim taken over leaves its record in the killed one's claim folder, marked, for it to read when it runs
      // again (it then ends that job as taken over, not as disappeared): the only thing left beside the filed files.
      const leftFor = `${CLAIMS_FOLDER}/${killed}/${CLAIM_RECORDS}/`;
      const inPlace = (f: string) => /^(uploaded|duplicates)\//.test(f) || (f.startsWith(leftFor) && held.includes(f.slice(leftFor.length)));
      await api(server.url, token, 'DELETE', '/local/v1/faults');
      // Everything ends filed away (uploaded/ or duplicates/ for a file the killed one had already delivered), and
      // nothing is left in the folder or in a claim folder.
      const names = contents.map((_, i) => `census-${i}.csv`);
      const filedNames = (files: string[]) => files.filter((f) => /^(uploaded|duplicates)\//.test(f) && f.endsWith('.csv'));
      await eventually(async () => {
        const files = await listFiles(dir);
        const filed = new Set(filedNames(files).map((f) => basename(f)));
        return names.every((n) => filed.has(n)) && files.every(inPlace) ? true : undefined;
      }, 180_000, 500).catch(async (error: unknown) => {
        const all = await listFiles(dir);
        const filed = new Set(filedNames(all).map((f) => basename(f)));
        throw new Error(`${String(error)}; missing: ${names.filter((n) => !filed.has(n)).join(', ')}; not filed: ${all.filter((f) => !inPlace(f)).slice(0, 20).join(', ')}; held by the killed one: ${held.length}; survivor: ${second.stderr().slice(-3000)}`);
      });
      // A kill between the two steps of a no-clobber move (link, then unlink) leaves the file under two names: the
      // killed one's uploaded/ and, after the survivor took the claim over and the service said it holds it,
      // duplicates/. Both names are the one file (same inode): never a copy, never a second upload.
      const byName = new Map<string, Set<string>>();
      for (const f of filedNames(await listFiles(dir))) {
        const info = await stat(join(dir, f));
        byName.set(basename(f), (byName.get(basename(f)) ?? new Set()).add(`${info.dev}:${info.ino}`));
      }
      for (const [name, inodes] of byName) expect(inodes.size, `${name} is filed as different files`).toBe(1);
      for (const c of contents) expect(uploaded(server, md5(c))).toBe(1);
      if (held.length > 0) expect(second.stderr()).toMatch(/taken over from the uploader/);
      const files = await listFiles(dir);
      expect(files.filter((f) => !inPlace(f))).toEqual([]);
      for (const f of files.filter((each) => each.startsWith(leftFor))) {
        expect(JSON.parse(await readFile(join(dir, f), 'utf8'))).toMatchObject({ baseUrl: server.url, clientId: TEST_CLIENT.id, takenOverBy: claimOwner(envs[1]!.PAYROLL_DATA_DIR!) });
      }
    } finally {
      a.child.kill('SIGKILL');
      b?.child.kill('SIGTERM');
      await Promise.all([a.exited, b?.exited]);
      await api(server.url, token, 'DELETE', '/local/v1/faults');
    }
  }, 400_000);

  it('a full disk under the journal: said once, naming the data folder, and files seen meanwhile are picked up once space returns', async () => {
    const disk = await mountSmallDisk('2m', { at: await folder('payroll-tmpfs-') });
    try {
      const dataDir = join(disk.path, 'data');
      await mkdir(dataDir);
      const env = { ...(await envFor()), PAYROLL_DATA_DIR: dataDir, PAYROLL_LOG_LEVEL: 'debug' };
      const dir = await folder();
      const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
      try {
        const warm = censusCsv('disk-warm');
        await writeFile(join(dir, 'census-warm.csv'), warm);
        await eventually(() => watch.events.find((e) => e.event === 'result'), 60_000);
        // Fill the disk under the journal to the last byte.
        const filler = await disk.fill();
        const contents = Array.from({ length: 5 }, (_, i) => censusCsv(`disk-full-${i}`, 30));
        await Promise.all(contents.map((c, i) => writeFile(join(dir, `census-full-${i}.csv`), c)));
        const full = () => watch.events.filter((e) => e.event === 'error' && /cannot be taken up for now/.test(String(e.data.message)));
        await eventually(() => full()[0], 60_000);
        expect(String(full()[0]!.data.message)).toContain(`the disk that holds the data folder ${dataDir} is full`);
        expect(String(full()[0]!.data.message)).toMatch(/free some space on it\. They wait in the watched folder/);
        // The watcher offers each file again at every sweep; what waits is not said again each time.
        await eventually(() => ((watch.stderr().match(/census-full-\d\.csv waits too/g) ?? []).length >= 10 ? true : undefined), 60_000);
        expect(full()).toHaveLength(1);
        for (const c of contents) expect(uploaded(server, md5(c))).toBe(0);
        await rm(filler);
        await eventually(() => watch.events.find((e) => e.event === 'notice' && /the upload journal can be written again/.test(String(e.data.message))), 60_000);
        await eventually(() => (contents.every((c) => uploaded(server, md5(c)) === 1) ? true : undefined), 120_000, 250);
        await eventually(async () => ((await listFiles(dir)).filter((f) => f.startsWith('uploaded/')).length === 6 ? true : undefined), 60_000);
      } finally {
        watch.child.kill('SIGTERM');
        await watch.exited;
      }
    } finally {
      await disk.remove();
    }
  }, 300_000);
});
