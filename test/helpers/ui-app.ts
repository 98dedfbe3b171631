/**
 * Starts the real `payroll-uploader ui` command for end-to-end tests: its own data folder, settings written before it
 * starts (watched folder, fast stability), the private keychain's environment, and optionally the embedded local
 * server. Needs the built renderer (npm run build:renderer; `npm test` builds it first).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { SettingsInput } from '../../shared/settings.schema';
import { CLI } from './cli';
import { ROOT, tempDir } from './local-server';

export const RENDERER_DIR = join(ROOT, 'dist/renderer');

export type UiApp = {
  /** The printed sign-in address: it signs in one browser, once (signInUrl gives more). */
  url: string;
  origin: string;
  /** The printed token, for scripts (Authorization: Bearer). */
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

/** What the command prints first: the token for scripts, then the first sign-in address. */
const LINES = /^ui token ([A-Za-z0-9_-]+)\nui at ((http:\/\/127\.0\.0\.1:(\d+))\/\?code=[A-Za-z0-9_-]+)\n$/;

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
  const lines = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.split('\n').length > 2) resolve(stdout);
    });
    void exited.then((code) => reject(new Error(`payroll-uploader ui exited (${String(code)}) before printing its address:\n${stderr}`)));
  });
  const match = LINES.exec(lines);
  if (!match) throw new Error(`unexpected first output of payroll-uploader ui: ${JSON.stringify(lines)}`);
  const [, token, url, origin, port] = match as unknown as [string, string, string, string, string];
  return {
    url, origin, token, port: Number(port), dataDir, child,
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

/** A new one-time sign-in address, asked for with the token as a script would (POST /signin). */
export async function signInUrl(app: { origin: string; token: string }): Promise<string> {
  const response = await fetch(`${app.origin}/signin`, { method: 'POST', headers: { authorization: `Bearer ${app.token}` } });
  const body = await response.json() as { ok: boolean; result?: { url: string } };
  if (!body.ok || !body.result) throw new Error(`no sign-in address (${response.status}): ${JSON.stringify(body)}`);
  return body.result.url;
}

/** Signs the page's browser context in with a new address and waits until it has moved on to the app's clean address. */
export async function signIn(page: Page, app: { origin: string; token: string }): Promise<void> {
  await page.goto(await signInUrl(app));
  await page.waitForURL(`${app.origin}/`);
}
