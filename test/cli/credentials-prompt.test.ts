/**
 * `credentials set` at a real pseudo-terminal (made by `script`): ending a prompt with Ctrl+C or Ctrl+D says that
 * nothing was stored and fails, instead of ending with code 0 as if the credentials had been set.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterEach, expect, it } from 'vitest';
import { CLI } from '../helpers/cli';
import { ROOT, eventually, tempDir } from '../helpers/local-server';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

type Step = { after: string; send: string };

/** Runs `credentials set` in a terminal, typing each step's keys once its text has been shown. */
async function inTerminal(steps: Step[]): Promise<{ code: number | null; output: string }> {
  dir = await tempDir('payroll-prompt-');
  const command = `${process.execPath} ${CLI} credentials set --env sandbox`;
  const terminal = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: ROOT, env: { ...process.env, PAYROLL_DATA_DIR: dir, PAYROLL_CLIENT_ID: '', PAYROLL_CLIENT_SECRET: '' },
  });
  let output = '';
  terminal.stdout.on('data', (d: Buffer) => (output += d.toString()));
  const ended = new Promise<number | null>((resolve) => terminal.on('close', resolve));
  try {
    for (const step of steps) {
      await eventually(() => (output.includes(step.after) ? true : undefined), 30_000);
      terminal.stdin.write(step.send);
    }
    // Without readline's cursor moves, the text as the clerk reads it.
    // eslint-disable-next-line no-control-regex
    return { code: await ended, output: output.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '') };
  } finally {
    terminal.kill('SIGKILL');
  }
}

it('Ctrl+D at the client id prompt says nothing was stored and fails with code 1', async () => {
  const { code, output } = await inTerminal([{ after: 'Client id (sandbox): ', send: '\x04' }]);
  expect(output).toMatch(/Client id \(sandbox\): \r?\n.*payroll-uploader credentials: cancelled: nothing was stored/);
  expect(code).toBe(1);
}, 60_000);

it('Ctrl+C at the muted secret prompt says nothing was stored on a line of its own and ends with code 130', async () => {
  const { code, output } = await inTerminal([
    { after: 'Client id (sandbox): ', send: 'acme\r' },
    { after: 'Client secret for acme (sandbox): ', send: 'half-typ\x03' },
  ]);
  expect(output).toMatch(/Client secret for acme \(sandbox\): \r?\n.*payroll-uploader credentials: cancelled: nothing was stored/);
  expect(output).not.toContain('half-typ');
  expect(code).toBe(130);
}, 60_000);

it('Ctrl+D at the secret prompt says nothing was stored and fails with code 1', async () => {
  const { code, output } = await inTerminal([
    { after: 'Client id (sandbox): ', send: 'acme\r' },
    { after: 'Client secret for acme (sandbox): ', send: '\x04' },
  ]);
  expect(output).toContain('cancelled: nothing was stored');
  expect(code).toBe(1);
}, 60_000);
