/**
 * `npm start` where the Electron binary is missing (as here): one line saying so, then browser mode's one address
 * line, and that address serves the app; with a desktop, the address goes to the default browser. Real processes,
 * stopped with SIGTERM as a terminal would.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'start-desktop-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function startFallback(envChanges: NodeJS.ProcessEnv, check: (out: { stdout: string; stderr: string; url: string }) => Promise<void>) {
  const dataDir = await mkdtemp(path.join(dir, 'data-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PAYROLL_LOG_LEVEL: 'warn', PAYROLL_DATA_DIR: dataDir };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  delete env.CI;
  Object.assign(env, envChanges);
  const child = spawn(process.execPath, [path.join(root, 'bin/start-desktop.js'), '--port', '0', '--data-dir', dataDir], {
    cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await vi.waitFor(() => expect(stdout.includes('\n') || child.exitCode !== null).toBe(true), { timeout: 90_000, interval: 100 });
    expect(stdout).toMatch(/^ui at http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{22,}\n$/);
    await check({ stdout, stderr, url: stdout.slice('ui at '.length).trim() });
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}

describe('npm start without the Electron binary', () => {
  it('says so in one line, starts browser mode, prints its address, and stops on SIGTERM', async () => {
    await startFallback({}, async ({ stderr, url }) => {
      expect(stderr).toBe('Payroll Uploader: the Electron binary is not installed, so no desktop window; starting browser mode instead.\n');
      const page = await fetch(url, { redirect: 'manual' });
      expect([200, 302, 303]).toContain(page.status);
      const app = await fetch(new URL('/', url), { headers: { cookie: page.headers.get('set-cookie')?.split(';')[0] ?? '' } });
      expect(app.status).toBe(200);
      expect(await app.text()).toContain('<div id="root">');
    });
  }, 120_000);

  it('opens the address in the default browser when there is a desktop', async () => {
    // A stand-in xdg-open that notes what it was asked to open.
    const bin = await mkdtemp(path.join(dir, 'bin-'));
    const opened = path.join(bin, 'opened.txt');
    await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    await chmod(path.join(bin, 'xdg-open'), 0o755);
    await startFallback({ DISPLAY: ':99', PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` }, async ({ url }) => {
      await vi.waitFor(async () => expect(await readFile(opened, 'utf8')).toBe(url), { timeout: 20_000 });
    });
  }, 120_000);
});
