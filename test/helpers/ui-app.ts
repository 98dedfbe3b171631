/**
 * Starts the real `payroll-uploader ui` command for end-to-end tests: its own data folder, settings written before it
 * starts (watched folder, fast stability), the private keychain's environment, and optionally the embedded local
 * server. Needs the built renderer (npm run build:renderer; `npm test` builds it first).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SettingsInput } from '../../shared/settings.schema';
import { CLI } from './cli';
import { ROOT, tempDir } from './local-server';

export const RENDERER_DIR = join(ROOT, 'dist/renderer');

export type UiApp = {
  /** The printed address with its token. */
  url: string;
  origin: string;
  token: string;
  port: number;
  dataDir: string;
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Sends the signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

export type UiAppOptions = {
  /** Written as settings.json before the start. */
  settings?: SettingsInput;
  /** Pass --local-server. */
  localServer?: boolean;
  /** The keychain's environment (from startKeyring) and anything else for the child. */
  env?: NodeJS.ProcessEnv;
  dataDir?: string;
  args?: string[];
};

const LINE = /^ui at (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([A-Za-z0-9_-]+)\n$/;

export async function startUiApp(options: UiAppOptions = {}): Promise<UiApp> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) throw new Error('dist/renderer is missing: run npm run build:renderer');
  const dataDir = options.dataDir ?? (await tempDir('payroll-ui-'));
  await mkdir(dataDir, { recursive: true });
  if (options.settings) await writeFile(join(dataDir, 'settings.json'), JSON.stringify(options.settings, null, 2));
  const args = ['ui', '--data-dir', dataDir, ...(options.localServer ? ['--local-server'] : []), ...(options.args ?? [])];
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT, env: { ...process.env, PAYROLL_CLIENT_ID: '', PAYROLL_CLIENT_SECRET: '', ...options.env },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) resolve(stdout);
    });
    void exited.then((code) => reject(new Error(`payroll-uploader ui exited (${String(code)}) before printing its address:\n${stderr}`)));
  });
  const match = LINE.exec(line);
  if (!match) throw new Error(`unexpected first output of payroll-uploader ui: ${JSON.stringify(line)}`);
  const [, origin, port, token] = match as unknown as [string, string, string, string];
  return {
    url: line.slice('ui at '.length).trim(), origin, token, port: Number(port), dataDir, child,
    stdout: () => stdout, stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Calls a bridge method over HTTP with the token, as a script would. */
export async function callBridge(app: { origin: string; token: string }, method: string, request: unknown = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${app.origin}/bridge/${method}`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${app.token}` }, body: JSON.stringify(request),
  });
  return { status: response.status, body: await response.json() };
}
