import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppUrl, resolveAppFile, serveAppRequest } from './app-protocol';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';
import { vetExternalUrl } from './external-url';

let dir: string;
let renderer: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'app-protocol-'));
  renderer = path.join(dir, 'renderer');
  await mkdir(path.join(renderer, 'assets'), { recursive: true });
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>x</title>');
  await writeFile(path.join(renderer, 'assets', 'index.js'), 'console.log(1)');
  await writeFile(path.join(dir, 'secret.txt'), 'payroll data');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('app:// protocol', () => {
  it('serves the built renderer with its type and the security headers', async () => {
    const page = await serveAppRequest(renderer, { url: 'app://payroll/', method: 'GET' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<title>x</title>');
    const script = await serveAppRequest(renderer, { url: 'app://payroll/assets/index.js?v=1#x', method: 'GET' });
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await (await serveAppRequest(renderer, { url: 'app://payroll/index.html', method: 'HEAD' })).text()).toBe('');
  });

  it('never leaves the renderer folder, whatever the spelling', async () => {
    for (const url of ['app://payroll/../secret.txt', 'app://payroll/%2e%2e/secret.txt', 'app://payroll/assets/..%2f..%2fsecret.txt',
      'app://payroll/%2e%2e%5csecret.txt', 'app://payroll/a%00.html', 'app://other/index.html', 'app://payroll/%E0%A4%A']) {
      const file = resolveAppFile(renderer, url);
      expect(file === undefined || file.startsWith(renderer + path.sep)).toBe(true);
      const answer = await serveAppRequest(renderer, { url, method: 'GET' });
      expect(answer.status).toBe(404);
      expect(await answer.text()).not.toContain('payroll data');
    }
  });

  it('answers only GET and HEAD', async () => {
    expect((await serveAppRequest(renderer, { url: 'app://payroll/index.html', method: 'POST' })).status).toBe(405);
  });

  it('knows its own origin exactly', () => {
    expect(isAppUrl('app://payroll/index.html#/jobs')).toBe(true);
    for (const url of ['app://payroll.evil/', 'app://evil/payroll', 'https://payroll/', 'file:///payroll/index.html', 'app://user@payroll/', 'nonsense']) {
      expect(isAppUrl(url)).toBe(false);
    }
  });
});

describe('vetExternalUrl', () => {
  it('passes plain https links to named hosts', () => {
    expect(vetExternalUrl('https://docs.payroll.example.com/help?x=1#y')).toBe('https://docs.payroll.example.com/help?x=1#y');
  });
  it.each([
    'http://example.com/', 'file:///C:/Windows/System32/calc.exe', 'javascript:alert(1)', 'smb://server/share', 'ms-msdt:/id',
    'https://user:pw@example.com/', 'https://127.0.0.1/', 'https://[::1]/', 'https://localhost/', 'https://example.com/\u0000x',
    'https://example.com/ x', `https://example.com/${'a'.repeat(2100)}`, 'not a url', '',
    // Loopback names in other spellings: a trailing dot and every name under localhost resolve to this machine too.
    'https://localhost./', 'https://LOCALHOST../', 'https://app.localhost/', 'https://App.LocalHost./x', 'https://127.0.0.1./',
    // A bare word stays one with a trailing dot.
    'https://intranet./',
  ])('refuses %s', (url) => expect(vetExternalUrl(url)).toBeUndefined());
  it('passes a named host written with its trailing dot', () => {
    expect(vetExternalUrl('https://docs.payroll.example.com./help')).toBe('https://docs.payroll.example.com./help');
  });
  it('refuses what is not a string', () => expect(vetExternalUrl({ href: 'https://example.com' })).toBeUndefined());
});
