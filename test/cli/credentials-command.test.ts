import { execFile } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKeyring } from '../helpers/keyring';
import { SCOPES } from '../../shared';
import { runCli } from '../helpers/cli';
import { ROOT, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

const SECRET = 'very-secret-client-value-42';

/** The process id of the gnome-keyring-daemon whose HOME is `home` (one test keyring's). */
async function keyringDaemonOf(home: string): Promise<number> {
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const [cmdline, environ] = await Promise.all([readFile(`/proc/${pid}/cmdline`, 'utf8'), readFile(`/proc/${pid}/environ`, 'utf8')]).catch(() => ['', '']);
    if (cmdline.startsWith('gnome-keyring-daemon') && environ.split('\0').includes(`HOME=${home}`)) return Number(pid);
  }
  throw new Error(`no gnome-keyring-daemon runs with HOME=${home}`);
}

type Result = { code: number; stdout: string; stderr: string };

describe('payroll-uploader credentials (real gnome-keyring)', () => {
  let keyring: Awaited<ReturnType<typeof startKeyring>>;
  let dataDir: string;
  const cli = (args: string[], stdin?: string, extraEnv: Record<string, string> = {}): Promise<Result> =>
    new Promise((resolve) => {
      const child = execFile(process.execPath, [join(ROOT, 'bin/payroll-uploader.js'), 'credentials', ...args], {
        cwd: ROOT, env: { ...process.env, ...keyring.env, PAYROLL_DATA_DIR: dataDir, PAYROLL_CLIENT_ID: '', PAYROLL_CLIENT_SECRET: '', ...extraEnv },
      }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
      child.stdin?.end(stdin ?? '');
    });

  beforeAll(async () => {
    keyring = await startKeyring();
    dataDir = await tempDir();
  });
  afterAll(async () => {
    await keyring.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores the secret from standard input in the keychain, never in a file', async () => {
    const set = await cli(['set', '--env', 'local', '--client-id', 'acme'], `${SECRET}\n`);
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('acme');
    const status = await cli(['status', '--env', 'local', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'local', clientId: 'acme', secretStored: true, keychainAvailable: true });
    // The local profile keeps its default address (a profile object in the file would otherwise replace it).
    const settings = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8')) as { profiles: { local: { baseUrl?: string; clientId?: string } } };
    expect(settings.profiles.local).toEqual({ baseUrl: 'http://127.0.0.1:8787', clientId: 'acme' });
    for (const name of await readdir(dataDir, { recursive: true })) {
      const text = await readFile(join(dataDir, name)).catch(() => Buffer.alloc(0));
      expect(text.includes(SECRET), name).toBe(false);
    }
    expect(set.stdout + status.stdout).not.toContain(SECRET);
  });

  it('watch uses the keychain credentials, and the secret is nowhere in the data folders, the request log or the output', async () => {
    const server = await startTestServer({ clients: [{ id: 'keyed', secret: SECRET, scopes: [...SCOPES] }] });
    const folder = await tempDir('payroll-keyed-');
    try {
      expect((await cli(['set', '--env', 'local', '--client-id', 'keyed'], SECRET)).code).toBe(0);
      await writeFile(join(folder, 'census-keyed.csv'), censusCsv('keyed'));
      const watch = await runCli(['watch', folder, '--base-url', server.url, '--once', '--json'], {
        ...keyring.env, PAYROLL_DATA_DIR: dataDir, PAYROLL_CLIENT_ID: '', PAYROLL_CLIENT_SECRET: '', PAYROLL_LOG_LEVEL: 'debug',
      });
      expect(watch.code, watch.stderr).toBe(0);
      expect(watch.stdout).toContain('"state":"uploaded"');
      expect(`${watch.stdout}${watch.stderr}`).not.toContain(SECRET);
      expect(`${watch.stdout}${watch.stderr}`).not.toContain(Buffer.from(`keyed:${SECRET}`).toString('base64'));
      await server.close();
      for (const root of [dataDir, server.dataDir, folder]) {
        for (const name of await readdir(root, { recursive: true })) {
          const text = await readFile(join(root, name)).catch(() => Buffer.alloc(0));
          expect(text.includes(SECRET), join(root, name)).toBe(false);
        }
      }
    } finally {
      await server.stop();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses a secret given on the command line', async () => {
    const res = await cli(['set', SECRET, '--env', 'local', '--client-id', 'acme']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('never taken from the command line');
    expect(res.stderr).not.toContain(SECRET);
  });

  it('deletes the credentials, and status then says they are missing', async () => {
    expect((await cli(['delete', '--env', 'local'])).code).toBe(0);
    const status = await cli(['status', '--env', 'local', '--json']);
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ clientId: null, secretStored: false });
  });

  it('status tells a locked keychain, in text and as a JSON line, and set writes the secret nowhere', async () => {
    const locked = await startKeyring();
    try {
      expect((await cli(['set', '--env', 'sandbox', '--client-id', 'acme'], 'stored-before-the-lock', locked.env)).code).toBe(0);
      await locked.lock();
      const lockedMessage = /The system keychain is locked, so the client secret can be neither saved nor read\. Unlock the login keyring/;
      // A profile with a stored secret, and one with none: both say locked, not "no secret".
      const json = await cli(['status', '--env', 'sandbox', '--json'], undefined, locked.env);
      expect(json.code).toBe(1);
      expect(json.stderr).toBe('');
      expect(JSON.parse(json.stdout)).toMatchObject({
        profile: 'sandbox', clientId: 'acme', secretStored: false, keychainAvailable: false, keychainProblem: expect.stringMatching(lockedMessage) as unknown, env: false,
      });
      const text = await cli(['status', '--env', 'production'], undefined, locked.env);
      expect(text.code).toBe(1);
      expect(text.stdout).toContain('secret in keychain: cannot tell');
      expect(text.stdout).toMatch(new RegExp(`keychain: unavailable: ${lockedMessage.source}`));
      // The environment variables still make usable credentials.
      const fromEnv = await cli(['status', '--env', 'production', '--json'], undefined, { ...locked.env, PAYROLL_CLIENT_ID: 'ci', PAYROLL_CLIENT_SECRET: 'from-env' });
      expect(fromEnv.code).toBe(0);
      expect(JSON.parse(fromEnv.stdout)).toMatchObject({ keychainAvailable: false, env: true });

      const set = await cli(['set', '--env', 'production', '--client-id', 'acme'], SECRET, locked.env);
      expect(set.code).toBe(1);
      expect(set.stderr).toMatch(lockedMessage);
      expect(set.stderr).not.toContain(SECRET);
      for (const name of await readdir(dataDir, { recursive: true })) {
        const bytes = await readFile(join(dataDir, name)).catch(() => Buffer.alloc(0));
        expect(bytes.includes(SECRET), name).toBe(false);
      }
    } finally {
      await locked.stop();
    }
  });

  it('status says one environment variable set without the other as watch does, and exits 1', async () => {
    expect((await cli(['set', '--env', 'local', '--client-id', 'acme'], SECRET)).code).toBe(0);
    const words = 'PAYROLL_CLIENT_ID is set but PAYROLL_CLIENT_SECRET is not. No file is uploaded until a client ID and secret are set: '
      + 'set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET';
    const text = await cli(['status', '--env', 'local'], undefined, { PAYROLL_CLIENT_ID: 'acme' });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('secret in keychain: yes');
    expect(text.stdout).toContain(`environment variables PAYROLL_CLIENT_ID/PAYROLL_CLIENT_SECRET: ${words}`);
    const json = await cli(['status', '--env', 'local', '--json'], undefined, { PAYROLL_CLIENT_SECRET: 'only-the-secret' });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ secretStored: true, env: false, envProblem: expect.stringMatching(/^PAYROLL_CLIENT_SECRET is set but PAYROLL_CLIENT_ID is not\. No file is uploaded/) as unknown });
    expect(json.stdout).not.toContain('only-the-secret');
    // watch says the same of every file.
    const folder = await tempDir('payroll-half-set-');
    try {
      await writeFile(join(folder, 'census-half.csv'), censusCsv('half-set'));
      const watch = await runCli(['watch', folder, '--base-url', 'http://127.0.0.1:9', '--once'], { ...keyring.env, PAYROLL_DATA_DIR: dataDir, PAYROLL_CLIENT_ID: 'acme', PAYROLL_CLIENT_SECRET: '' });
      expect(watch.code).toBe(1);
      expect(watch.stderr).toContain(words);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('a keychain that takes the call and never answers (its daemon stopped) is said not to answer, not to be locked', async () => {
    const hung = await startKeyring();
    const daemon = await keyringDaemonOf(hung.env.HOME);
    try {
      expect((await cli(['status', '--env', 'local', '--json'], undefined, hung.env)).stdout).toContain('"keychainAvailable":true');
      process.kill(daemon, 'SIGSTOP');
      // The call waits for the reply until its timeout, then says none came.
      const json = await cli(['status', '--env', 'local', '--json'], undefined, hung.env);
      expect(json.code).toBe(1);
      const problem = String((JSON.parse(json.stdout) as { keychainProblem?: string }).keychainProblem);
      expect(problem).toMatch(/^The system keychain does not answer \(it was asked, and no reply came\), so the client secret can be neither saved nor read\. Its keyring service seems stuck/);
      expect(problem).toMatch(/restart gnome-keyring-daemon/);
      expect(problem).not.toMatch(/is locked|Unlock the login keyring/);
    } finally {
      process.kill(daemon, 'SIGCONT');
      await hung.stop();
    }
  }, 120_000);

  it('says how to fix a missing keychain', async () => {
    const res = await cli(['set', '--env', 'local', '--client-id', 'acme'], SECRET, { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/PAYROLL_CLIENT_SECRET/);
    expect(res.stderr).not.toContain(SECRET);
  });
});
