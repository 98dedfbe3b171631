/**
 * A bad --base-url or --client-id is a wrong command line: exit code 2 and the flag named with what is wrong, not
 * "Invalid settings (nothing was saved)" and exit code 1 as if saved settings were at fault.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, uploaderEnv } from '../helpers/cli';
import { tempDir } from '../helpers/local-server';

describe('bad flag values', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    dir = await tempDir('payroll-flags-');
    env = uploaderEnv(join(dir, 'data'));
    await writeFile(join(dir, 'records.json'), JSON.stringify([{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    [['watch', '.', '--once', '--base-url', 'notaurl'], '--base-url: must be an http(s) URL'],
    [['deliveries', '--base-url', 'http://10.0.0.1:9'], '--base-url: https is required (plain http only to this machine'],
    // Credentials in clear text to whatever DNS answers for "localhost.": refused, saying how to write this machine.
    [['deliveries', '--base-url', 'http://localhost.:9'], '--base-url: https is required (plain http only to this machine: 127.0.0.0/8, localhost or [::1]); "localhost." with a trailing dot is looked up through DNS, which may lead off this machine: write localhost or 127.0.0.1'],
    [['send', 'census', 'records.json', '--base-url', 'https://user:pass@example.com'], '--base-url: must not contain a user name or password'],
  ])('%j is a usage error naming --base-url', async (args, message) => {
    const res = await runCli(args.map((a) => (a === '.' || a === 'records.json' ? join(dir, a) : a)), env);
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toContain('Invalid settings');
    expect(res.stderr).not.toContain('user:pass');
    expect(res.code).toBe(2);
  });

  it('an over-long --client-id is a usage error, said before the secret is read, and nothing is saved', async () => {
    const data = join(dir, 'client-id');
    const res = await runCli(['credentials', 'set', '--env', 'sandbox', '--client-id', 'a'.repeat(201)], { PAYROLL_DATA_DIR: data }, 'a-secret');
    expect(res.stderr).toContain('--client-id: must be at most 200 characters long');
    expect(res.stderr).not.toContain('Invalid settings');
    expect(res.code).toBe(2);
    expect(await readdir(data)).not.toContain('settings.json');
  });
});
