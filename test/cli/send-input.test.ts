/**
 * `send` says what is wrong with its JSON file (unreadable, a folder, a named pipe, UTF-16) instead of "no such file"
 * or a JSON parser's token; takes UTF-8 with a byte order mark as the watched folder takes such CSV files; and with
 * --json tells a failure on standard output too.
 */
import { execFile } from 'node:child_process';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OBEYING_FILE_MODES, runCli, uploaderEnv } from '../helpers/cli';
import { startTestServer, tempDir, type TestServer } from '../helpers/local-server';

const run = promisify(execFile);
const RECORDS = JSON.stringify([{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'BOM-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]);

describe('send: its JSON file', () => {
  let dir: string;
  let server: TestServer;
  let env: NodeJS.ProcessEnv;
  const file = (name: string) => join(dir, name);
  const send = (name: string, ...flags: string[]) =>
    runCli(['send', 'census', file(name), '--base-url', server.url, ...flags], env, '', OBEYING_FILE_MODES);

  beforeAll(async () => {
    dir = await tempDir('payroll-send-input-');
    server = await startTestServer();
    env = uploaderEnv(file('data'));
    await writeFile(file('bom.json'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(RECORDS)]));
    await writeFile(file('utf16.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(RECORDS, 'utf16le')]));
    await writeFile(file('locked.json'), RECORDS);
    await chmod(file('locked.json'), 0o000);
    await run('mkfifo', [file('pipe.json')]);
    await writeFile(file('object.json'), '{"a":1}');
    await writeFile(file('inexact.json'), RECORDS.replace('"employeeStatus":"ACTIVE"', '"employeeStatus":"ACTIVE","grossAnnualSalary":12.3400000000000000001'));
  });
  afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes UTF-8 with a byte order mark', async () => {
    const res = await send('bom.json');
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^sent 1 census record\(s\): import \S+ QUEUED/);
    expect(res.code).toBe(0);
  });

  it.each([
    ['UTF-16 text', 'utf16.json', 'is saved as UTF-16 text; save it as UTF-8'],
    ['a file this user may not read', 'locked.json', 'cannot be read: this user is not allowed to open it (permission denied)'],
    ['a folder', '.', 'is a folder, not a file'],
    ['a named pipe (without waiting for a writer)', 'pipe.json', 'is a named pipe, not a saved file'],
  ])('says what is wrong with %s', async (_what, name, words) => {
    const res = await send(name);
    expect(res.stderr).toContain(`${file(name)} ${words}`);
    expect(res.stderr).not.toMatch(/no such file|not valid JSON|EACCES/);
    expect(res.code).toBe(1);
  });

  it('with --json, a failure is a JSON line on standard output too', async () => {
    const shape = await send('object.json', '--json');
    expect(shape.code).toBe(1);
    expect(JSON.parse(shape.stdout)).toEqual({
      batch: null, created: null, error: `nothing was sent; ${file('object.json')} has invalid records`, problems: ['the body must be a JSON array of records'],
    });
    const utf16 = await send('utf16.json', '--json');
    expect(utf16.code).toBe(1);
    expect(JSON.parse(utf16.stdout)).toMatchObject({ created: null, error: expect.stringContaining('is saved as UTF-16 text') as unknown });
  });

  it('refuses a number JSON.parse would round, in the words the service refuses it with, and sends nothing', async () => {
    const before = (server.ctx.db.prepare('SELECT count(*) AS n FROM imports').get() as { n: number }).n;
    const res = await send('inexact.json');
    expect(res.stderr).toContain(`nothing was sent: in ${file('inexact.json')}, [0].grossAnnualSalary: the number 12.3400000000000000001 cannot be held exactly (it would be read as 12.34); send at most 15 significant digits`);
    expect(res.code).toBe(1);
    expect((server.ctx.db.prepare('SELECT count(*) AS n FROM imports').get() as { n: number }).n).toBe(before);
  });
});
