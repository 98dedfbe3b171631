import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, rm, writeFile } from 'node:fs/promises';
import Database from 'libsql';
import { api, eventually, getToken, ROOT, spawnServerCli, tempDir } from '../helpers/local-server';

const run = promisify(execFile);
const cli = join(ROOT, 'bin/payroll-uploader.js');
const census = [{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }];

async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd: ROOT, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('payroll-uploader server', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    [['--port', 'abc'], '--port must be a whole number'],
    [['--port', '70000'], '--port must be a whole number'],
    [['--bogus'], "Unknown option '--bogus'"],
    [['--client', 'nosecret'], '--client must be ID:SECRET'],
    [['--client', 'a:b:census:write,bad:scope'], 'unknown scope(s) bad:scope'],
    [['--retry-delays', '1,2'], '--retry-delays needs 5'],
    [['--webhook-url', 'ftp://x'], '--webhook-url must be an http'],
    [['--webhook-url', 'http://127.0.0.1:1/h', '--webhook-secret', 'plain'], '--webhook-secret must be whsec_'],
    [['--tls-cert', 'only.pem'], '--tls-cert and --tls-key go together'],
    [['--token-ttl', '0'], '--token-ttl must be a whole number'],
    [['--webhook-url', 'http://example.com/hook'], '--allow-remote-webhooks'],
    [['--webhook-url', 'http://u:p@127.0.0.1:9/hook'], 'must not hold a user name or password'],
    [['--clients-file', '/nonexistent/clients'], '--clients-file: no such file'],
  ])('refuses %j with exit code 2 and a clear message', async (args, message) => {
    const res = await runCli(['server', '--data-dir', dir, ...args]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stdout).not.toContain('listening on');
  });

  it('ends with exit code 1 and says so when the port is busy, without a secret the next start would not show again', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const data = join(dir, 'busy-port');
    const webhook = ['--webhook-url', 'http://127.0.0.1:9/hook'];
    try {
      const res = await runCli(['server', '--data-dir', data, '--port', String(port), ...webhook]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(res.stderr).not.toContain('shown only this once');
    } finally {
      blocker.close();
    }
    // The same data folder on a free port: the client's and the webhook's secrets are made, and shown, now.
    const next = await spawnServerCli(['--port', '0', '--data-dir', data, ...webhook]);
    await next.stop();
    expect(next.stderr()).toContain('created client "local-client" with all scopes; its secret (shown only this once)');
    expect(next.stderr()).toContain('webhook signing secret of client "local-client" (shown only this once)');
  });

  it('prints one listening line, creates a default client once, and shuts down cleanly on SIGTERM and SIGINT', async () => {
    const data = join(dir, 'default-client');
    const first = await spawnServerCli(['--port', '0', '--data-dir', data]);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const secret = /secret \(shown only this once\): (\S+)/.exec(first.stderr())?.[1];
    expect(secret).toBeTruthy();
    await getToken(first.url, { id: 'local-client', secret: secret! });
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = await spawnServerCli(['--port', '0', '--data-dir', data]);
    expect(second.stderr()).not.toContain('shown only this once');
    await getToken(second.url, { id: 'local-client', secret: secret! });
    expect(await second.stop('SIGINT')).toBe(0);
  });

  it('npm run server stopped by its process id frees the port (no loader child lives on)', async () => {
    const child = spawn('npm', ['run', '--silent', 'server', '--', '--port', '0', '--data-dir', join(dir, 'npm-run')], { cwd: ROOT });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const url = await eventually(() => /listening on (\S+)/.exec(stdout)?.[1], 60_000);
    const port = Number(new URL(url).port);
    child.kill('SIGTERM');
    await exited;
    // The port is free again once every process of the server has ended.
    await eventually(() => new Promise<true | undefined>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(undefined));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    }), 20_000);
  }, 90_000);

  it('takes clients from a private file and from the environment; refuses a file others can read; warns about --client', async () => {
    const file = join(dir, 'clients.txt');
    await writeFile(file, '# id:secret[:scopes]\nfile-client:file-secret-123456\n\nreader:reader-secret-1:deliveries:read\n', { mode: 0o644 });
    await chmod(file, 0o644);
    const open = await runCli(['server', '--data-dir', join(dir, 'clients'), '--clients-file', file]);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('is open to other users (mode 644: group or others may read or change it); run: chmod 600');
    await chmod(file, 0o600);

    const server = await spawnServerCli(['--port', '0', '--data-dir', join(dir, 'clients'), '--clients-file', file], { PAYROLL_SERVER_CLIENTS: 'env-client:env-secret-123456' });
    try {
      expect(server.stderr()).not.toContain('warning');
      await getToken(server.url, { id: 'file-client', secret: 'file-secret-123456' });
      await getToken(server.url, { id: 'env-client', secret: 'env-secret-123456' });
      const reader = await getToken(server.url, { id: 'reader', secret: 'reader-secret-1' });
      expect((await api(server.url, reader, 'POST', '/law/api/v1/census', census)).status).toBe(403);
    } finally {
      await server.stop();
    }
    const flagged = await spawnServerCli(['--port', '0', '--data-dir', join(dir, 'clients'), '--client', 'cli:cli-secret-123456']);
    await flagged.stop();
    expect(flagged.stderr()).toContain('warning: --client puts the client secret on the command line');
  }, 60_000);

  it('keeps a generated webhook signing secret across restarts', async () => {
    const data = join(dir, 'webhook-secret');
    const args = ['--port', '0', '--data-dir', data, '--webhook-url', 'http://127.0.0.1:9/hook'];
    const first = await spawnServerCli(args);
    await first.stop();
    expect(first.stderr()).toContain('webhook signing secret of client "local-client" (shown only this once)');
    const secretOf = () => (new Database(join(data, 'payroll-local.sqlite')).prepare('SELECT webhook_secret FROM clients').get() as { webhook_secret: string }).webhook_secret;
    const before = secretOf();
    const second = await spawnServerCli(args);
    await second.stop();
    expect(second.stderr()).not.toContain('webhook signing secret');
    expect(secretOf()).toBe(before);
  }, 60_000);

  it('keeps tokens valid and secrets hashed across a restart', async () => {
    const data = join(dir, 'restart');
    const client = { id: 'acme', secret: 'acme-secret-123456' };
    const first = await spawnServerCli(['--port', '0', '--data-dir', data, '--client', `${client.id}:${client.secret}`]);
    const token = await getToken(first.url, client);
    await first.stop();
    const second = await spawnServerCli(['--port', '0', '--data-dir', data]);
    try {
      expect((await api(second.url, token, 'POST', '/law/api/v1/census', census)).status).toBe(201);
      const { stdout } = await run('grep', ['-c', client.secret, join(data, 'payroll-local.sqlite')]).catch((e: { stdout: string }) => e);
      expect(stdout.trim()).toBe('0');
    } finally {
      await second.stop();
    }
  });

  it('serves HTTPS with TLS 1.2 as the minimum when given a certificate', async () => {
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1']);
    const server = await spawnServerCli(['--port', '0', '--data-dir', join(dir, 'tls'), '--tls-cert', cert, '--tls-key', key]);
    try {
      expect(server.url).toMatch(/^https:\/\//);
      const port = Number(new URL(server.url).port);
      const handshake = (maxVersion: 'TLSv1.1' | 'TLSv1.2') =>
        new Promise<string>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, maxVersion, minVersion: 'TLSv1' }, () => {
            resolve(socket.getProtocol() ?? 'none');
            socket.end();
          });
          socket.on('error', () => resolve('refused'));
        });
      expect(await handshake('TLSv1.2')).toBe('TLSv1.2');
      expect(await handshake('TLSv1.1')).toBe('refused');
    } finally {
      await server.stop();
    }
  });
});
