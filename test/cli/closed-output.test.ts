/**
 * `watch --json | head -1`: the reader of the output goes away. The run stops in order, without a stack trace, and
 * nothing is lost: the next run uploads every file.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI, runCli, uploaderEnv } from '../helpers/cli';
import { ROOT, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = await tempDir('payroll-closed-output-');
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

it('watch --once --json whose reader has gone stops quietly, and the next run uploads every file', async () => {
  const folder = join(dir, 'exports');
  const env = uploaderEnv(join(dir, 'data'));
  await mkdir(folder);
  for (const i of [1, 2, 3]) await writeFile(join(folder, `census-q${i}.csv`), censusCsv(`closed-${i}`));
  const child = spawn(process.execPath, [CLI, 'watch', folder, '--base-url', server.url, '--once', '--json'], { cwd: ROOT, env: { ...process.env, ...env } });
  // The reading end is closed before the command writes anything: every line it writes meets a closed pipe.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(stderr).not.toMatch(/Unhandled 'error' event|EPIPE|at .*\.(js|ts):\d+/);
  expect(code).not.toBeNull();

  const next = await runCli(['watch', folder, '--base-url', server.url, '--once'], env);
  expect(next.code, next.stderr).toBe(0);
  const left = (await readdir(folder, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name).sort();
  expect(left).toEqual(['census-q1.csv', 'census-q2.csv', 'census-q3.csv']);
  expect((await readdir(folder)).sort()).toEqual(['uploaded']);
}, 120_000);
