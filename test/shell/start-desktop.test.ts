/**
 * `npm start` where the Electron binary is missing (as here): one line saying so, then browser mode's token and
 * sign-in address lines, and that address serves the app; with a desktop, the default browser is sent to the address
 * through an owner-only page, so no process's arguments carry the address's code (nor the token). Real processes,
 * stopped with SIGTERM as a terminal would.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'start-desktop-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What npm start printed: the sign-in address, and every secret on standard output (the token, the address's code). */
type Started = { stdout: string; stderr: string; url: string; secrets: string[] };

async function startFallback(envChanges: NodeJS.ProcessEnv, check: (out: Started) => Promise<void>) {
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
    const address = /^ui at (\S+)\n/m;
    await vi.waitFor(() => expect(address.test(stdout) || child.exitCode !== null).toBe(true), { timeout: 90_000, interval: 100 });
    const url = address.exec(stdout)?.[1] ?? '';
    const secrets = [...stdout.matchAll(/^ui token (\S+)$|[?&][a-z]+=([^&\s]+)/gm)].map((m) => m[1] ?? m[2] ?? '');
    await check({ stdout, stderr, url, secrets });
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}

describe('npm start without the Electron binary', () => {
  it('says so in one line, starts browser mode, prints its address, and stops on SIGTERM', async () => {
    await startFallback({}, async ({ stdout, stderr, url }) => {
      // The token for scripts, then the one-time sign-in address.
      expect(stdout).toMatch(/^ui token [\w-]{22,}\nui at http:\/\/127\.0\.0\.1:\d+\/\?code=[\w-]{22,}\n$/);
      expect(stderr).toBe('Payroll Uploader: the Electron binary is not installed, so no desktop window; starting browser mode instead.\n');
      const page = await fetch(url, { redirect: 'manual' });
      expect([200, 302, 303]).toContain(page.status);
      const app = await fetch(new URL('/', url), { headers: { cookie: page.headers.get('set-cookie')?.split(';')[0] ?? '' } });
      expect(app.status).toBe(200);
      expect(await app.text()).toContain('<div id="root">');
    });
  }, 120_000);

  it('sends the default browser to the address through an owner-only page, with no code or token in any argument', async () => {
    // A stand-in xdg-open that notes its whole command line, as any local user could read it from /proc.
    const bin = await mkdtemp(path.join(dir, 'bin-'));
    const opened = path.join(bin, 'opened.txt');
    await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\ntr '\\0' '\\n' < /proc/$$/cmdline > '${opened}.part' && mv '${opened}.part' '${opened}'\n`);
    await chmod(path.join(bin, 'xdg-open'), 0o755);
    let page = '';
    await startFallback({ DISPLAY: ':99', PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` }, async ({ url, secrets }) => {
      await vi.waitFor(async () => expect((await stat(opened)).isFile()).toBe(true), { timeout: 20_000 });
      const commandLine = await readFile(opened, 'utf8');
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) expect(commandLine).not.toContain(secret);
      expect(commandLine).not.toContain('127.0.0.1');
      // What it was given: a page only this user can read, in a folder only this user can enter.
      page = commandLine.trim().split('\n').at(-1) as string;
      expect(page).toMatch(/\.html$/);
      expect((await stat(page)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(page))).mode & 0o777).toBe(0o700);
      // The page sends the browser to the printed address, which signs it in (Chromium, as the default browser would).
      expect(await readFile(page, 'utf8')).toContain(`<meta http-equiv="refresh" content="0; url='${url}'">`);
      const browser = await launchBrowser();
      try {
        const { page: tab } = await openPage(browser);
        await tab.goto(pathToFileURL(page).href);
        await tab.waitForURL(new URL('/', url).href);
        await tab.locator('#root').getByRole('heading').first().waitFor();
      } finally {
        await browser.close();
      }
    });
    // Gone once npm start has stopped.
    await expect(stat(path.dirname(page))).rejects.toThrow();
  }, 120_000);
});
