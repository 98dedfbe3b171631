/**
 * A data folder that cannot be used, and settings that cannot be written, said in words naming the folder or file
 * (not Node's EEXIST, or ENOENT for a read-only disk); `credentials set` leaves no secret behind in the keychain when
 * the settings cannot take its client id, and `credentials delete` says what it removed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../electron/core/credentials';
import { OBEYING_FILE_MODES, runCli } from '../helpers/cli';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { tempDir } from '../helpers/local-server';
import { mountSmallDisk, type SmallDisk } from '../helpers/small-disk';

const run = promisify(execFile);
const noCredentials = { PAYROLL_CLIENT_ID: '', PAYROLL_CLIENT_SECRET: '' };

describe('a data folder that cannot be used', () => {
  let dir: string;
  let readOnly: string;
  let disk: SmallDisk | undefined;
  beforeAll(async () => {
    dir = await tempDir('payroll-data-folder-');
    // A small disk of its own, made read-only once a data folder with its settings is on it.
    readOnly = join(dir, 'disk');
    await mkdir(readOnly);
    disk = await mountSmallDisk('2m', { at: readOnly, options: 'mode=700' });
    await mkdir(join(readOnly, 'data'), { mode: 0o700 });
    await writeFile(join(readOnly, 'data', 'settings.json'), '{}\n', { mode: 0o600 });
    await run('mount', ['-o', 'remount,ro', readOnly]);
  });
  afterAll(async () => {
    await disk?.remove();
    await rm(dir, { recursive: true, force: true });
  });

  it('a file given as the data folder is said to be a file, naming it', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a folder');
    const res = await runCli(['credentials', 'status'], { PAYROLL_DATA_DIR: file, ...noCredentials });
    expect(res.stderr).toContain(`the data folder ${file} is a file, not a folder: move the file away, or choose another data folder`);
    expect(res.stderr).not.toContain('EEXIST');
    expect(res.code).toBe(1);
    const below = await runCli(['credentials', 'status'], { PAYROLL_DATA_DIR: join(file, 'data'), ...noCredentials });
    expect(below.stderr).toContain(`the data folder ${join(file, 'data')} cannot be made: ${file} is a file, not a folder`);
  });

  it('a new data folder on a read-only disk is said to be on a read-only disk, not to be missing', async () => {
    const data = join(readOnly, 'new-data');
    for (const args of [['watch', dir, '--once', '--base-url', 'http://127.0.0.1:9'], ['server', '--port', '0', '--data-dir', data]]) {
      const res = await runCli(args, { PAYROLL_DATA_DIR: data, ...noCredentials });
      expect(res.stderr).toContain(`the data folder ${data} cannot be made: the disk of ${readOnly} is read-only; choose a data folder on a disk that can be written`);
      expect(res.stderr).not.toMatch(/ENOENT|no such file/);
      expect(res.code).toBe(1);
    }
  });

  it('an existing data folder on a read-only disk: the server says so, naming the folder, not Node\'s EROFS', async () => {
    const data = join(readOnly, 'data');
    const res = await runCli(['server', '--port', '0', '--data-dir', data], noCredentials);
    expect(res.stderr).toContain(`the data folder ${data} cannot be used: the disk it is on is read-only (its lock file server.lock cannot be written); `
      + 'choose a data folder on a disk that can be written (--data-dir, or PAYROLL_DATA_DIR for the embedded one)');
    expect(res.stderr).not.toMatch(/EROFS/);
    expect(res.code).toBe(1);
  });

  it('a settings file this user may not read is said in words, for every command, and left as it is', async () => {
    const data = join(dir, 'unreadable');
    await mkdir(data, { mode: 0o700 });
    const settings = join(data, 'settings.json');
    await writeFile(settings, '{}\n', { mode: 0o000 });
    for (const args of [['credentials', 'status'], ['watch', dir, '--once', '--base-url', 'http://127.0.0.1:9']]) {
      const res = await runCli(args, { PAYROLL_DATA_DIR: data, ...noCredentials }, '', OBEYING_FILE_MODES);
      expect(res.stderr).toContain(`The settings file ${settings} cannot be read (this user is not allowed to read it), so its settings cannot be used `
        + `and it was left unchanged. Give your user permission to read and change it (chmod 600 "${settings}"), or choose another data folder (PAYROLL_DATA_DIR)`);
      expect(res.stderr).not.toMatch(/EACCES|permission denied/);
      expect(res.code).toBe(1);
    }
  });

  describe('with a real keychain', () => {
    let keyring: KeyringHandle;
    let savedEnv: NodeJS.ProcessEnv;
    beforeAll(async () => {
      keyring = await startKeyring();
      savedEnv = { ...process.env };
      Object.assign(process.env, keyring.env);
    });
    afterAll(async () => {
      process.env = savedEnv;
      await keyring.stop();
    });

    it('credentials set with settings that cannot be written names the settings file and leaves no secret in the keychain', async () => {
      const data = join(readOnly, 'data');
      const res = await runCli(['credentials', 'set', '--env', 'sandbox', '--client-id', 'orphan'], { ...keyring.env, PAYROLL_DATA_DIR: data, ...noCredentials }, 'a-client-secret');
      // No secret that settings do not name, which `credentials delete` could not find.
      expect(await new KeychainSecretStore().get('sandbox', 'orphan')).toBeUndefined();
      expect(res.stderr).toContain(`The settings file ${join(data, 'settings.json')} could not be written (the disk it is on is read-only), so nothing was saved`);
      expect(res.stderr).not.toContain('EROFS');
      expect(res.code).toBe(1);
    });

    it('credentials delete says it removed a client id when the keychain held no secret for it', async () => {
      const data = await tempDir('payroll-delete-');
      try {
        await writeFile(join(data, 'settings.json'), JSON.stringify({ profiles: { sandbox: { clientId: 'acme' } } }), { mode: 0o600 });
        const env = { ...keyring.env, PAYROLL_DATA_DIR: data, ...noCredentials };
        const res = await runCli(['credentials', 'delete', '--env', 'sandbox'], env);
        expect(res.stdout).toContain('removed the client id "acme" of sandbox from settings; the OS keychain held no secret for it');
        expect(res.code).toBe(0);
        const json = await runCli(['credentials', 'delete', '--env', 'sandbox', '--json'], env);
        expect(JSON.parse(json.stdout)).toEqual({ profile: 'sandbox', deleted: false, clientId: null, secretDeleted: false });
        expect(existsSync(join(data, 'settings.json'))).toBe(true);
      } finally {
        await rm(data, { recursive: true, force: true });
      }
    });
  });
});
