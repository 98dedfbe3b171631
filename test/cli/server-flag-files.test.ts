/**
 * `payroll-uploader server` with a wrong file or address in its flags: a usage error (exit code 2) that names the flag,
 * the file and what is wrong, said before anything is made (no data folder, so no client and no secret) or bound,
 * instead of OpenSSL's or the name service's raw words, or an unreadable key blamed on the port.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OBEYING_FILE_MODES, runCli } from '../helpers/cli';
import { ROOT, tempDir } from '../helpers/local-server';

const run = promisify(execFile);

describe('payroll-uploader server: wrong files and addresses in the flags', () => {
  let dir: string;
  const file = (name: string) => join(dir, name);
  beforeAll(async () => {
    dir = await tempDir('payroll-server-flags-');
    for (const pair of ['1', '2']) {
      await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file(`key${pair}.pem`), '-out', file(`cert${pair}.pem`), '-days', '1', '-subj', '/CN=127.0.0.1']);
    }
    await writeFile(file('clients.txt'), 'acme:acme-secret-123456\n', { mode: 0o600 });
    await writeFile(file('locked-key.pem'), await readFile(file('key1.pem')), { mode: 0o600 });
    await chmod(file('locked-key.pem'), 0o000);
    await writeFile(file('locked-clients.txt'), 'acme:acme-secret-123456\n', { mode: 0o600 });
    await chmod(file('locked-clients.txt'), 0o000);
    await mkdir(file('clients-folder'), { mode: 0o755 });
    await chmod(file('clients-folder'), 0o755);
    await run('mkfifo', ['-m', '600', file('clients-pipe')]);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['a key that is not the certificate\'s', ['--tls-cert', 'cert1.pem', '--tls-key', 'key2.pem'], /--tls-key \S+key2\.pem is not the key of the certificate in --tls-cert \S+cert1\.pem/],
    ['a certificate file that holds none', ['--tls-cert', 'clients.txt', '--tls-key', 'key1.pem'], /--tls-cert \S+clients\.txt holds no certificate: give the certificate file, in PEM form/],
    ['a key file that holds none', ['--tls-cert', 'cert1.pem', '--tls-key', 'cert1.pem'], /--tls-key \S+cert1\.pem holds no private key/],
    ['a key this user may not read', ['--tls-cert', 'cert1.pem', '--tls-key', 'locked-key.pem'], /--tls-key \S+locked-key\.pem cannot be read: this user is not allowed to open it/],
    ['a clients file this user may not read', ['--clients-file', 'locked-clients.txt'], /--clients-file \S+locked-clients\.txt cannot be read: this user is not allowed to open it/],
    ['a folder as the clients file', ['--clients-file', 'clients-folder'], /--clients-file \S+clients-folder is a folder, not a file/],
    ['a named pipe as the clients file', ['--clients-file', 'clients-pipe'], /--clients-file \S+clients-pipe is a named pipe, not a saved file/],
  ])('refuses %s with exit code 2, naming the flag, the file and the problem', async (_what, flags, message) => {
    const data = file(`data-${flags.join('-')}`);
    const args = flags.map((f) => (f.startsWith('--') ? f : file(f)));
    const res = await runCli(['server', '--port', '0', '--data-dir', data, ...args], {}, '', OBEYING_FILE_MODES);
    // The first line says what is wrong; the usage follows.
    const said = res.stderr.split('\n')[0];
    expect(said).toMatch(message);
    expect(said).not.toMatch(/port|errno|EACCES|EISDIR|routines|chmod/);
    expect(res.code).toBe(2);
    expect(res.stdout).not.toContain('listening on');
    // Said before anything was made: no data folder, so no client and no secret shown once and lost.
    expect(existsSync(data)).toBe(false);
  });

  it('refuses a --host no name service knows with exit code 2, before anything is made', async () => {
    const data = file('data-host');
    const res = await runCli(['server', '--port', '0', '--data-dir', data, '--host', 'nosuchhost.invalid']);
    expect(res.stderr).toContain('--host nosuchhost.invalid: no address of that name is known to this machine; give an address of this machine, such as 127.0.0.1');
    expect(res.stderr).not.toContain('ENOTFOUND');
    expect(res.code).toBe(2);
    expect(existsSync(data)).toBe(false);
  });

  // Documentation addresses (RFC 5737, RFC 3849), never one of this machine's.
  it.each(['192.0.2.1', '2001:db8::1'])('refuses a --host %s that is no address of this machine with exit code 2, before anything is made', async (host) => {
    const data = file(`data-${host}`);
    const res = await runCli(['server', '--port', '0', '--data-dir', data, '--host', host]);
    expect(res.stderr.split('\n')[0]).toBe(`payroll-uploader server: --host ${host}: no such address on this machine; give an address of this machine, such as 127.0.0.1`);
    expect(res.code).toBe(2);
    // Not even the data folder, let alone its database.
    expect(existsSync(data)).toBe(false);
  });

  it('names the folder a relative --clients-file was looked for in: the working one, which npm run makes the repository\'s', async () => {
    const data = file('data-relative');
    const res = await runCli(['server', '--port', '0', '--data-dir', data, '--clients-file', 'no-such-clients.txt']);
    expect(res.stderr.split('\n')[0]).toBe(`payroll-uploader server: --clients-file: no such file no-such-clients.txt (looked for at ${join(ROOT, 'no-such-clients.txt')})`);
    expect(res.code).toBe(2);
    expect(existsSync(data)).toBe(false);
  });
});
