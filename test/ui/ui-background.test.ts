/**
 * `payroll-uploader ui &` in a terminal with job control (a real pseudo-terminal made by `script`, an interactive
 * bash): a background job that reads its terminal is stopped by the system, so browser mode must not read it there,
 * or it would hold the data folder without answering and not even stop on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ROOT, eventually, tempDir } from '../helpers/local-server';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('started in the background of a terminal, it answers and stops on SIGTERM', async () => {
  dir = await tempDir('payroll-ui-background-');
  const script = join(dir, 'background.sh');
  await writeFile(script, [
    'set -m',
    `node bin/payroll-uploader.js ui --data-dir "$1/data" > "$1/out" 2> "$1/err" &`,
    'echo $! > "$1/pid"',
    'wait',
  ].join('\n'));
  const terminal = spawn('script', ['-qec', `bash --norc -i ${script} ${dir}`, '/dev/null'], { cwd: ROOT, stdio: 'ignore' });
  const ended = new Promise((resolve) => terminal.on('exit', resolve));
  try {
    const origin = await eventually(async () => /^ui at (http:\/\/[^/]+)\//m.exec(await readFile(join(dir!, 'out'), 'utf8').catch(() => ''))?.[1], 30_000);
    const pid = Number(await readFile(join(dir, 'pid'), 'utf8'));
    // It answers (a page with no session is refused, at once), rather than hanging in a stopped process.
    const answer = await fetch(`${origin}/`, { signal: AbortSignal.timeout(5_000) });
    expect(answer.status).toBe(401);
    expect(await readFile(join(dir, 'err'), 'utf8')).toContain('started in the background');
    process.kill(pid, 'SIGTERM');
    await eventually(() => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    }, 15_000);
  } finally {
    terminal.kill('SIGKILL');
    await ended;
  }
}, 60_000);
