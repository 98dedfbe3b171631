/** The browser-mode bridge over real HTTP: who may call it, how a bad argument is answered, events over SSE. */
import { request as httpRequest } from 'node:http';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { tempDir } from '../helpers/local-server';
import { readSse } from '../helpers/sse';
import { signIn } from '../helpers/ui-app';
import { startUiEngine, type UiEngine } from '../helpers/ui-engine';

/** A raw request, so Host and Origin can be anything (fetch will not send a foreign Host). */
function raw(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('HTTP bridge', () => {
  let keyring: KeyringHandle;
  let engine: UiEngine;
  let watched: string;
  let browser: Browser | undefined;
  const json = { 'content-type': 'application/json' };
  const host = () => ({ host: `127.0.0.1:${engine.server.port}` });
  const bearer = () => ({ authorization: `Bearer ${engine.server.token}` });

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    watched = await tempDir('payroll-watched-');
    engine = await startUiEngine({ settings: { watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await engine?.stop();
    await keyring?.stop();
    await rm(watched, { recursive: true, force: true });
  });

  it('uses a token and sign-in codes of at least 128 random bits, and no address carries the token', () => {
    expect(Buffer.from(engine.server.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const address = engine.server.signInUrl();
    expect(address).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${engine.server.port}/\\?code=[\\w-]{22,}$`));
    expect(Buffer.from(new URL(address).searchParams.get('code') ?? '', 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(address).not.toContain(engine.server.token);
    expect(engine.server.signInUrl()).not.toBe(address);
  });

  it('refuses a missing or wrong token on methods, the page and the event stream', async () => {
    const port = engine.server.port;
    const call = { method: 'POST', path: '/bridge/settings.get', body: '{}' };
    expect((await raw(port, { ...call, headers: { ...host(), ...json } })).status).toBe(401);
    const wrong = await raw(port, { ...call, headers: { ...host(), ...json, authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    const wrongCookie = { cookie: `payroll_ui_${port}=${engine.server.token.slice(0, -1)}x` };
    expect((await raw(port, { ...call, headers: { ...host(), ...json, ...wrongCookie } })).status).toBe(401);
    // The token signs scripts in as a bearer only: as a cookie, or in an address, it is nothing.
    const tokenCookie = { cookie: `payroll_ui_${port}=${engine.server.token}` };
    expect((await raw(port, { ...call, headers: { ...host(), ...json, ...tokenCookie } })).status).toBe(401);
    expect((await raw(port, { path: '/', headers: { ...host(), ...tokenCookie } })).status).toBe(401);
    expect((await raw(port, { path: `/?token=${engine.server.token}`, headers: host() })).status).toBe(401);
    const page = await raw(port, { path: '/', headers: host() });
    expect(page.status).toBe(401);
    expect(page.body).toContain('press Enter in the window where Payroll Uploader is running');
    expect((await raw(port, { path: '/?code=abc', headers: host() })).status).toBe(401);
    expect((await raw(port, { path: '/bridge/events', headers: host() })).status).toBe(401);
    expect((await raw(port, { ...call, headers: { ...host(), ...json, ...bearer() } })).status).toBe(200);
  });

  it('trades a sign-in code, once, for an HttpOnly, SameSite=Strict session cookie and a clean address', async () => {
    const port = engine.server.port;
    const address = new URL(engine.server.signInUrl());
    const code = address.searchParams.get('code') as string;
    const first = await raw(port, { path: `${address.pathname}${address.search}`, headers: host() });
    expect(first.status).toBe(200);
    // The page keeps its bridge key and moves on to the clean address.
    expect(first.body).toContain('<a href="/">');
    const bridgeKey = /<meta name="payroll-bridge-key" content="([\w-]+)">/.exec(first.body)?.[1] as string;
    expect(bridgeKey).toMatch(/^[\w-]{43}$/);
    expect(first.headers['cache-control']).toBe('no-store');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const pair = cookie.split(';')[0] as string;
    // The session is its own secret: neither the address's code nor the token.
    const session = pair.slice(pair.indexOf('=') + 1);
    expect(session).not.toBe(code);
    expect(session).not.toBe(engine.server.token);
    expect(bridgeKey).not.toBe(session);
    // The cookie opens the pages; the bridge needs the key, which no browser sends by itself.
    const call = { method: 'POST', path: '/bridge/settings.get', body: '{}' };
    expect((await raw(port, { ...call, headers: { ...host(), ...json, cookie: pair } })).status).toBe(401);
    expect((await raw(port, { ...call, headers: { ...host(), ...json, 'x-payroll-bridge-key': bridgeKey } })).status).toBe(200);
    expect((await raw(port, { ...call, headers: { ...host(), ...json, 'x-payroll-bridge-key': session } })).status).toBe(401);
    // The script that keeps it is served to anyone: it holds nothing.
    const script = await raw(port, { path: '/signed-in.js', headers: host() });
    expect(script.status).toBe(200);
    expect(script.body).toContain('localStorage.setItem');
    const page = await raw(port, { path: '/', headers: { ...host(), cookie: pair } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.body).toContain('<div id="root">');
    // The address is used up: it signs no one else in; the browser it signed in just gets the app again.
    const again = await raw(port, { path: `/?code=${code}`, headers: host() });
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toContain('This sign-in address has already been used or has expired');
    const signedInAlready = await raw(port, { path: `/?code=${code}`, headers: { ...host(), cookie: pair } });
    expect(signedInAlready.status).toBe(303);
    expect(signedInAlready.headers.location).toBe('/');
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin, even with the token', async () => {
    const port = engine.server.port;
    const call = { method: 'POST', path: '/bridge/settings.get', body: '{}' };
    expect((await raw(port, { ...call, headers: { host: `evil.example:${port}`, ...json, ...bearer() } })).status).toBe(403);
    expect((await raw(port, { ...call, headers: { host: `127.0.0.1:${port + 1}`, ...json, ...bearer() } })).status).toBe(403);
    const signIn = () => new URL(engine.server.signInUrl()).search;
    expect((await raw(port, { path: `/${signIn()}`, headers: { host: `rebind.example:${port}` } })).status).toBe(403);
    expect((await raw(port, { path: `/${signIn()}`, headers: { ...host(), origin: 'http://evil.example' } })).status).toBe(403);
    // Another site may send the browser to a sign-in address as a page (npm start's file:// page does), nothing else.
    const crossSite = { ...host(), 'sec-fetch-site': 'cross-site' };
    expect((await raw(port, { path: `/${signIn()}`, headers: { ...crossSite, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' } })).status).toBe(403);
    expect((await raw(port, { path: `/${signIn()}`, headers: { ...crossSite, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } })).status).toBe(200);
    expect((await raw(port, { path: '/', headers: { ...crossSite, ...bearer(), 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } })).status).toBe(403);
    const foreign = await raw(port, { ...call, headers: { ...host(), ...json, ...bearer(), origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect((await raw(port, { path: '/bridge/events', headers: { ...host(), ...bearer(), origin: 'http://evil.example' } })).status).toBe(403);
    expect((await raw(port, { ...call, headers: { ...host(), ...json, ...bearer(), 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    const own = await raw(port, { ...call, headers: { ...host(), ...json, ...bearer(), origin: `http://127.0.0.1:${port}` } });
    expect(own.status).toBe(200);
  });

  it('answers a bad argument with 400 and the field, an unknown method with 404, non-JSON with 415', async () => {
    const port = engine.server.port;
    const headers = { ...host(), ...json, ...bearer() };
    const bad = await raw(port, { method: 'POST', path: '/bridge/jobs.query', headers, body: JSON.stringify({ limit: 9999, sort: { by: 'md5', dir: 'up' } }) });
    expect(bad.status).toBe(400);
    const body = JSON.parse(bad.body) as { ok: false; error: { code: string; fields: { path: string }[] } };
    expect(body.error.code).toBe('invalid_argument');
    expect(body.error.fields.map((f) => f.path)).toEqual(expect.arrayContaining(['limit', 'sort.by', 'sort.dir']));
    const settings = await raw(port, { method: 'POST', path: '/bridge/settings.patch', headers, body: JSON.stringify({ profiles: { sandbox: { baseUrl: 'http://example.com' } } }) });
    expect(settings.status).toBe(400);
    expect(JSON.parse(settings.body)).toMatchObject({ error: { code: 'invalid_argument', fields: [{ path: 'profiles.sandbox.baseUrl' }] } });
    expect((await raw(port, { method: 'POST', path: '/bridge/jobs.drop', headers, body: '{}' })).status).toBe(404);
    expect((await raw(port, { method: 'POST', path: '/bridge/jobs.query', headers, body: '{nope' })).status).toBe(400);
    expect((await raw(port, { method: 'POST', path: '/bridge/jobs.query', headers: { ...host(), ...bearer(), 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
    expect((await raw(port, { method: 'GET', path: '/bridge/jobs.query', headers })).status).toBe(405);
  });

  it('sends events over SSE in order, and a reconnecting reader gets what it missed', async () => {
    const { port, token } = engine.server;
    const url = `http://127.0.0.1:${port}/bridge/events`;
    const sse = await readSse(url, { authorization: `Bearer ${token}` });
    expect(sse.status).toBe(200);
    const call = (method: string) => raw(port, { method: 'POST', path: `/bridge/${method}`, headers: { ...host(), ...json, ...bearer() }, body: '{}' });
    for (const method of ['watch.start', 'watch.pause', 'watch.resume', 'watch.stop']) expect((await call(method)).status).toBe(200);
    const folder = (await sse.waitFor(4)).filter((m) => m.event === 'folder').map((m) => (JSON.parse(m.data) as { state: string }).state);
    expect(folder).toEqual(['watching', 'paused', 'watching', 'stopped']);
    const lastSeen = sse.messages[1]?.id as string;
    sse.close();

    const again = await readSse(url, { authorization: `Bearer ${token}`, 'last-event-id': lastSeen });
    const replayed = await again.waitFor(2);
    expect(replayed.map((m) => m.id)).toEqual(sse.messages.slice(2, 4).map((m) => m.id));
    again.close();
  });

  it('carries a dropped file\'s job events in their order over SSE, ending with the result', async () => {
    const { port, token } = engine.server;
    const started = await engine.session.startLocalServer();
    expect(started.running).toBe(true);
    const sse = await readSse(`http://127.0.0.1:${port}/bridge/events`, { authorization: `Bearer ${token}` });
    await engine.session.watch.start();
    await writeFile(join(watched, 'census-sse.csv'), csvText('census', [censusRow(1)]));
    const deadline = Date.now() + 60_000;
    while (!sse.messages.some((m) => m.event === 'result') && Date.now() < deadline) await sse.waitFor(sse.messages.length + 1, 60_000);
    const states = sse.messages.filter((m) => m.event === 'job').map((m) => (JSON.parse(m.data) as { state: string }).state);
    const order = ['found', 'hashing', 'granting', 'uploading', 'uploaded'];
    expect(states.filter((s, i) => s !== states[i - 1] && order.includes(s))).toEqual(order);
    const result = sse.messages.find((m) => m.event === 'result');
    expect(JSON.parse(result?.data ?? '{}')).toMatchObject({ name: 'census-sse.csv', state: 'uploaded', finished: true });
    const ids = sse.messages.map((m) => Number(m.id?.split('-')[1]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    sse.close();
    await engine.session.watch.stop();
  }, 90_000);

  it('reconnects the page\'s event stream after the server restarts (Chromium)', async () => {
    browser = await launchBrowser();
    const { page, errors, close } = await openPage(browser);
    try {
      await signIn(page, engine.server);
      // The clerk's screens: past the set-up (no credentials are needed to read History) to the finished files.
      const later = page.getByRole('button', { name: 'Set up later' });
      await later.or(page.getByRole('heading', { name: 'Queue', level: 2 })).waitFor();
      if (await later.isVisible()) await later.click();
      await page.getByRole('link', { name: 'History' }).click();
      const uploaded = (name: string) => page.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Uploaded' });
      await uploaded('census-sse.csv').waitFor();
      await engine.restart();
      // Events published while no page is connected are not kept across a restart; wait for the page to be back.
      const deadline = Date.now() + 30_000;
      while (engine.server.events.clients() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(engine.server.events.clients()).toBe(1);
      await engine.session.watch.start();
      await writeFile(join(watched, 'census-after-restart.csv'), csvText('census', [censusRow(2)]));
      // Written after the reconnection: only the reconnected stream's events can bring the new file in.
      await uploaded('census-after-restart.csv').waitFor({ timeout: 60_000 });
      // The break itself shows as failed event-stream requests; nothing else may fail.
      expect(errors.filter((e) => !/bridge\/events|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e))).toEqual([]);
    } finally {
      await close();
      await engine.session.watch.stop();
    }
  }, 120_000);
});
