/**
 * How the bytes of settings.json are read: a UTF-8 byte order mark before the JSON (as older Windows Notepad saves
 * UTF-8) is read past, as `send` reads past one in its files; a file of NUL bytes is refused with what it quotes of
 * the file escaped, never with raw NUL bytes on the terminal. Real CLI processes, a real local server.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { runCli, uploaderEnv } from '../helpers/cli';
import type { TestServer } from '../helpers/local-server';
import { startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

let server: TestServer;
let dirs: string[] = [];
const folder = async () => {
  const dir = await tempDir('payroll-settings-bytes-');
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

it('a settings file saved with a UTF-8 byte order mark is read: watch --once takes its watched folder', async () => {
  const env = uploaderEnv(join(await folder(), 'data'));
  await mkdir(env.PAYROLL_DATA_DIR, { mode: 0o700 });
  const watched = await folder();
  await writeFile(join(watched, 'census-bom.csv'), censusCsv('settings-bom'));
  await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), `\uFEFF{\n  "watchedFolder": ${JSON.stringify(watched)}\n}\n`, { mode: 0o600 });

  const res = await runCli(['watch', '--base-url', server.url, '--once'], env);
  expect(res.stderr).not.toMatch(/settings file/);
  expect(res.code, res.stderr).toBe(0);
  expect(await readdir(watched)).not.toContain('census-bom.csv');
}, 60_000);

it('a settings file of NUL bytes is refused with the bytes it quotes escaped, none of them raw on the terminal', async () => {
  const env = uploaderEnv(join(await folder(), 'data'));
  await mkdir(env.PAYROLL_DATA_DIR, { mode: 0o700 });
  const file = join(env.PAYROLL_DATA_DIR, 'settings.json');
  await writeFile(file, Buffer.alloc(4096), { mode: 0o600 });

  const res = await runCli(['credentials', 'status'], env);
  expect(res.code).toBe(1);
  expect(res.stderr).toContain(`The settings file ${file} is invalid and was left unchanged; fix or remove it:\n  - not valid JSON: Unexpected token '\\u0000', "\\u0000\\u0000`);
  expect(res.stderr).not.toContain('\0');
}, 60_000);
