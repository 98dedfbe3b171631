/**
 * A settings.json that is a named pipe is refused with words naming it, at once: opening it to read would wait for a
 * writer forever, and every command with it.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../helpers/cli';
import { tempDir } from '../helpers/local-server';

let dir: string;
let run: RunningCli | undefined;
beforeAll(async () => {
  dir = await tempDir('payroll-settings-pipe-');
});
afterAll(async () => {
  // A command held by the pipe (as before this was refused) is ended here, also when the test timed out.
  run?.child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

it('a settings file that is a named pipe is refused, naming it, instead of holding the command forever', async () => {
  const data = join(dir, 'data');
  await mkdir(data, { mode: 0o700 });
  await promisify(execFile)('mkfifo', ['-m', '600', join(data, 'settings.json')]);
  const running = startCli(['credentials', 'status'], { PAYROLL_DATA_DIR: data, PAYROLL_CLIENT_ID: '', PAYROLL_CLIENT_SECRET: '' });
  run = running;
  expect(await running.exited).toBe(1);
  expect(running.stderr()).toContain(`The settings file ${join(data, 'settings.json')} is invalid and was left unchanged; fix or remove it:\n  - it is a named pipe, not a saved file`);
});
