/** Runs the real `payroll-uploader` command as a child process, as a user or a scheduled task would. */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, TEST_CLIENT } from './local-server';

export const CLI = join(ROOT, 'bin/payroll-uploader.js');

/** The environment of a command run on `dataDir` as the test client, its log kept to warnings and errors. */
export function uploaderEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv & { PAYROLL_DATA_DIR: string } {
  return { PAYROLL_DATA_DIR: dataDir, PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret, PAYROLL_LOG_LEVEL: 'warn', ...extra };
}

export type CliResult = { code: number | null; stdout: string; stderr: string };

/**
 * A command prefix under which a process started by root obeys file modes like any user (no CAP_DAC_OVERRIDE or
 * CAP_DAC_READ_SEARCH), so a file with mode 000 is unreadable to it as it is to a clerk; empty for other users.
 */
export const OBEYING_FILE_MODES: string[] = process.getuid?.() === 0
  ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--']
  : [];

/** The command as a child process; `prefix` is a command it runs under. */
function spawnCli(args: string[], env: NodeJS.ProcessEnv, prefix: string[]): ChildProcessWithoutNullStreams {
  const [command = process.execPath, ...before] = [...prefix, process.execPath];
  return spawn(command, [...before, CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
}

/** Runs the command to its end; `stdin` is written and closed; `prefix` is a command it runs under. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, stdin = '', prefix: string[] = []): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawnCli(args, env, prefix);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

export type JsonEvent = { event: string; at: string; data: Record<string, unknown> };

export type RunningCli = {
  child: ChildProcessWithoutNullStreams;
  /** Every JSON line seen on stdout so far (with --json). */
  events: JsonEvent[];
  stderr(): string;
  exited: Promise<number | null>;
};

/** Starts a long-running command (watch --json) and collects its JSON event lines; `prefix` as for runCli. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, prefix: string[] = []): RunningCli {
  const child = spawnCli(args, env, prefix);
  const events: JsonEvent[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('{')) events.push(JSON.parse(line) as JsonEvent);
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, events, stderr: () => stderr, exited };
}
