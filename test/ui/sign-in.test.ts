/**
 * Signing a browser in to `payroll-uploader ui` (the real command, Debian's Chromium): the address printed or opened
 * carries a one-time code, never the token. It signs one browser in, once, within 2 minutes; the address left in the
 * browser's history then opens nothing for anyone else, and says how to get a new one. The browser's session cookie is
 * neither the code nor the token; the token stays a bearer for scripts, which can ask for new addresses with it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { callBridge, signInUrl, startUiApp, type UiApp } from '../helpers/ui-app';
import { startUiEngine } from '../helpers/ui-engine';

const USED = 'This sign-in address has already been used or has expired';
const HOW_TO_GET_A_NEW_ONE = 'For a new address, press Enter in the window where Payroll Uploader is running';

describe('signing a browser in to browser mode', () => {
  let keyring: KeyringHandle;
  let app: UiApp;
  let browser: Browser;
  const pages: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    keyring = await startKeyring();
    app = await startUiApp({ env: keyring.env });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const close of pages) await close();
    await browser?.close();
    await app?.stop();
    await keyring?.stop();
  });

  /** A page in a browser context of its own (its own cookies), as another browser would be. */
  async function freshPage(): Promise<Page> {
    const { page, close } = await openPage(browser);
    pages.push(close);
    return page;
  }

  /** The app's first screen, past the sign-in. */
  const appShown = (page: Page) =>
    page.getByRole('button', { name: 'Set up later' }).or(page.getByRole('heading', { name: 'Queue', level: 2 })).first().waitFor();

  it('opens the printed address once: a second browser given it is refused and told how to get a new one', async () => {
    const code = new URL(app.url).searchParams.get('code');
    expect(code).toMatch(/^[\w-]{22,}$/);
    expect(app.url).not.toContain(app.token);

    const first = await freshPage();
    await first.goto(app.url);
    await first.waitForURL(`${app.origin}/`);
    await appShown(first);
    // The browser's session is its own secret, out of scripts' reach.
    const cookies = await first.context().cookies(app.origin);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ name: `payroll_ui_${app.port}`, httpOnly: true, sameSite: 'Strict' });
    expect(cookies[0]?.value).not.toBe(code);
    expect(cookies[0]?.value).not.toBe(app.token);

    // Anyone else with the address (from the history or the address bar's suggestions) gets nothing.
    const second = await freshPage();
    const refused = await second.goto(app.url);
    expect(refused?.status()).toBe(401);
    const text = await second.locator('body').innerText();
    expect(text).toContain(USED);
    expect(text).toContain(HOW_TO_GET_A_NEW_ONE);
    expect(await second.locator('#root').count()).toBe(0);
    expect(await second.context().cookies(app.origin)).toEqual([]);
    // Without a sign-in, the app's own address says the same.
    const bare = await second.goto(`${app.origin}/`);
    expect(bare?.status()).toBe(401);
    expect(await second.locator('body').innerText()).toContain(HOW_TO_GET_A_NEW_ONE);

    // The first browser stays signed in, the old address included.
    await first.goto(app.url);
    await first.waitForURL(`${app.origin}/`);
    await appShown(first);
  }, 60_000);

  it('prints a new address when Enter is pressed in its terminal, and that one works', async () => {
    const printed = app.stdout();
    app.child.stdin.write('\n');
    await vi.waitFor(() => expect(app.stdout().length).toBeGreaterThan(printed.length), { timeout: 10_000 });
    await vi.waitFor(() => expect(app.stdout().endsWith('\n')).toBe(true), { timeout: 10_000 });
    const added = app.stdout().slice(printed.length);
    expect(added).toMatch(new RegExp(`^ui at ${app.origin}/\\?code=[\\w-]{22,}\\n$`));
    const address = added.slice('ui at '.length).trim();
    expect(address).not.toBe(app.url);

    const page = await freshPage();
    await page.goto(address);
    await page.waitForURL(`${app.origin}/`);
    await appShown(page);
  }, 60_000);

  it('gives a script with the token a new address, and nobody without it', async () => {
    const post = (headers: Record<string, string>) => fetch(`${app.origin}/signin`, { method: 'POST', headers });
    const without = await post({});
    expect(without.status).toBe(401);
    expect(await without.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await post({ authorization: 'Bearer not-the-token' })).status).toBe(401);
    expect((await fetch(`${app.origin}/signin`)).status).toBe(405);

    const address = await signInUrl(app);
    expect(address).toMatch(new RegExp(`^${app.origin}/\\?code=[\\w-]{22,}$`));
    const page = await freshPage();
    await page.goto(address);
    await page.waitForURL(`${app.origin}/`);
    await appShown(page);
    // A signed-in browser's cookie does not make addresses for others.
    const [session] = await page.context().cookies(app.origin);
    expect((await post({ cookie: `${session?.name}=${session?.value}` })).status).toBe(401);
    // The token still works as a bearer, for the whole run.
    expect((await callBridge(app, 'settings.get')).status).toBe(200);
  }, 60_000);

  it('gives another web server on this host, which the browser sends the cookie to, nothing that opens the engine', async () => {
    const page = await freshPage();
    await page.goto(await signInUrl(app));
    await page.waitForURL(`${app.origin}/`);
    await appShown(page);
    // Any other local web server the clerk's browser visits (a developer's tool, another user's server on a shared
    // machine): cookies are kept apart by host, not by port, so it receives the session cookie.
    let received = '';
    const other = createServer((request, response) => {
      received = request.headers.cookie ?? '';
      response.end('another site');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      expect(received).toMatch(new RegExp(`^payroll_ui_${app.port}=`));
    } finally {
      other.close();
    }
    // Replayed, the cookie opens the pages only: not the engine's methods, not its event stream.
    const headers = { cookie: received, 'content-type': 'application/json' };
    const call = await fetch(`${app.origin}/bridge/settings.get`, { method: 'POST', headers, body: '{}' });
    expect(call.status).toBe(401);
    expect(await call.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await fetch(`${app.origin}/bridge/localServer.credentials`, { method: 'POST', headers, body: '{}' })).status).toBe(401);
    expect((await fetch(`${app.origin}/bridge/events`, { headers: { cookie: received } })).status).toBe(401);
    expect((await fetch(`${app.origin}/`, { headers: { cookie: received } })).status).toBe(200);
    // The page itself, with the key only it holds (in its origin's storage), still reaches the engine.
    await page.goto(`${app.origin}/`);
    await appShown(page);
    const key = await page.evaluate(() => localStorage.getItem('payroll-bridge-key'));
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(received).not.toContain(key);
    const withKey = await fetch(`${app.origin}/bridge/settings.get`, { method: 'POST', headers: { ...headers, 'x-payroll-bridge-key': key! }, body: '{}' });
    expect(withKey.status).toBe(200);
  }, 60_000);

  it('keeps the token and the codes out of standard error', () => {
    const codes = [...app.stdout().matchAll(/\?code=([\w-]+)/g)].map((m) => m[1] as string);
    expect(codes.length).toBeGreaterThanOrEqual(2);
    for (const secret of [app.token, ...codes]) expect(app.stderr()).not.toContain(secret);
  });
});

describe('a sign-in address never used', () => {
  it('stops working 2 minutes after it was made', async () => {
    const keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    let now = Date.now();
    const engine = await startUiEngine({ now: () => now });
    try {
      const open = (address: string) => fetch(address, { redirect: 'manual' });
      const late = engine.server.signInUrl();
      const justInTime = engine.server.signInUrl();
      now += 2 * 60_000 - 1;
      const inTime = await open(justInTime);
      expect(inTime.status).toBe(200);
      expect(inTime.headers.get('set-cookie')).toMatch(/^payroll_ui_\d+=/);
      now += 1;
      const expired = await open(late);
      expect(expired.status).toBe(401);
      expect(expired.headers.get('set-cookie')).toBeNull();
      const text = await expired.text();
      expect(text).toContain(USED);
      expect(text).toContain(HOW_TO_GET_A_NEW_ONE);
    } finally {
      await engine.stop();
      await keyring.stop();
    }
  }, 60_000);
});

describe('--host localhost', () => {
  // A browser may resolve `localhost` to ::1 first, where another local user could listen on the same port and be
  // handed the sign-in code: the address printed, and listened on, is 127.0.0.1 itself.
  it('prints and listens on 127.0.0.1, never the name a browser may resolve elsewhere', async () => {
    const keyring = await startKeyring();
    const app = await startUiApp({ env: keyring.env, args: ['--host', 'localhost'] });
    try {
      expect(new URL(app.url).host).toBe(`127.0.0.1:${app.port}`);
      expect(app.origin).toBe(`http://127.0.0.1:${app.port}`);
      // The code signs a browser in there: the page that keeps the session's key, and its cookie.
      const signedIn = await fetch(app.url, { redirect: 'manual' });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('set-cookie')).toMatch(/^payroll_ui_\d+=/);
    } finally {
      await app.stop();
      await keyring.stop();
    }
  }, 60_000);
});
