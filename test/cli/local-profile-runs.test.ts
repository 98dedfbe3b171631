/**
 * Which server a command line run talks to under the Local profile: the embedded one only for `--env local` or a Local
 * profile that names it; the user's own Local address (where `npm run server` listens) as it is; `--base-url` as it
 * says, even after the embedded server ran; and a second `watch --env local` on the same data folder is refused
 * before it touches anything the first one uses. Real CLI processes, a real local server, real files.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '../helpers/csv-fixtures';
import { runCli, startCli, uploaderEnv } from '../helpers/cli';
import type { TestServer } from '../helpers/local-server';
import { eventually, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

type LocalProfile = { baseUrl?: string; clientId?: string };

describe('the Local profile on the command line', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async () => {
    const dir = await tempDir('payroll-local-runs-');
    dirs.push(dir);
    return dir;
  };
  const uploadedCount = (checksum: string) =>
    Object.values(server.ctx.db.prepare("SELECT count(*) FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as object)[0] as number;
  const localOf = async (dataDir: string) =>
    (JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8')) as { profiles: { local: LocalProfile } }).profiles.local;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });
  const freshEnv = async () => uploaderEnv(await folder());

  it('watch without --env sends to a Local address of the user\'s own, not to an embedded server', async () => {
    const env = await freshEnv();
    // Local is the active profile by default; its address is the user's own server (as `npm run server` would be).
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ profiles: { local: { baseUrl: server.url } } }));
    const dir = await folder();
    const content = censusCsv('own-local');
    await writeFile(join(dir, 'census-own-local.csv'), content);
    const res = await runCli(['watch', dir, '--once'], env);
    expect(res.stderr).not.toMatch(/failed/);
    expect(res.code).toBe(0);
    expect(uploadedCount(md5(content))).toBe(1);
    expect((await localOf(env.PAYROLL_DATA_DIR)).baseUrl).toBe(server.url);
  }, 120_000);

  it('after the embedded server ran, send --env local --base-url goes to the server given', async () => {
    const env = await freshEnv();
    const dir = await folder();
    await writeFile(join(dir, 'census-embedded-first.csv'), censusCsv('embedded-first'));
    expect((await runCli(['watch', dir, '--env', 'local', '--once'], env)).code).toBe(0);
    expect((await localOf(env.PAYROLL_DATA_DIR)).clientId).toBe('payroll-uploader-app');
    const hire = join(dir, 'hire.json');
    await writeFile(hire, JSON.stringify([{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'LOCAL-RUNS-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]));
    const sent = await runCli(['send', 'census', hire, '--env', 'local', '--base-url', server.url, '--json'], env);
    expect(sent.stderr).not.toMatch(/stopped/);
    expect(sent.code).toBe(0);
    const { id } = (JSON.parse(sent.stdout) as { created: { id: string } }).created;
    expect(server.ctx.db.prepare('SELECT id FROM imports WHERE id = ?').get(id)).toBeDefined();
  }, 120_000);

  it('a second watch --env local on the same data folder is refused (exit 3) without repointing the first one', async () => {
    const env = await freshEnv();
    const dir = await folder();
    const first = startCli(['watch', dir, '--env', 'local', '--json'], env);
    try {
      await eventually(() => first.events.find((e) => e.event === 'folder' && e.data.state === 'watching'), 60_000);
      const before = await localOf(env.PAYROLL_DATA_DIR);
      const second = await runCli(['watch', await folder(), '--env', 'local', '--once'], env);
      expect(second.code).toBe(3);
      expect(await localOf(env.PAYROLL_DATA_DIR)).toEqual(before);
      // More than the session's 5 s look at the settings: a first watch repointed would now send to a stopped server.
      await new Promise((r) => setTimeout(r, 6_000));
      await writeFile(join(dir, 'census-after-second.csv'), censusCsv('after-second'));
      const result = await eventually(() => first.events.find((e) => e.event === 'result'), 60_000);
      expect(result.data.state).toBe('uploaded');
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  }, 150_000);
});
