/**
 * Browser mode in many tabs of one browser: a browser opens at most 6 connections to one server across all its tabs,
 * and each tab's event stream holds one as long as it is open. A hidden tab gives its stream up, so a clerk with
 * Queue, History, Settings… in tabs of their own can still open another, and a tab shown again catches up.
 * Headless Chromium counts every tab as shown: a tab is hidden here as the browser does it, through
 * `document.visibilityState` and the `visibilitychange` event.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { tempDir } from '../helpers/local-server';
import { callBridge, signIn, startUiApp, type UiApp } from '../helpers/ui-app';

const setVisibility = (page: Page, state: 'hidden' | 'visible') => page.evaluate((now) => {
  Object.defineProperty(document, 'visibilityState', { value: now, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}, state);

/** The app past its first-run steps (left for later in each tab): its Queue. */
async function appShown(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Set up later' }).click({ timeout: 20_000 });
  await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor({ timeout: 20_000 });
}

describe('browser mode in many tabs', () => {
  let keyring: KeyringHandle;
  let app: UiApp;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    keyring = await startKeyring();
    app = await startUiApp({ env: keyring.env, settings: { watchedFolder: await tempDir('payroll-tabs-') } });
    browser = await launchBrowser();
    context = await browser.newContext();
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    await keyring?.stop();
  });

  it('opens a seventh tab while six others are in the background, and a tab shown again gets its events', async () => {
    const tabs: Page[] = [];
    for (let i = 0; i < 6; i++) {
      const tab = await context.newPage();
      if (i === 0) await signIn(tab, app);
      else await tab.goto(`${app.origin}/`);
      await appShown(tab);
      await setVisibility(tab, 'hidden');
      tabs.push(tab);
    }
    // Six tabs, each of which held a connection for its event stream before: the seventh loads and reaches the engine.
    const seventh = await context.newPage();
    await seventh.goto(`${app.origin}/`);
    await appShown(seventh);
    await seventh.close();

    // Shown again, the first tab opens its stream anew and follows the engine: a pause made elsewhere shows in it.
    const first = tabs[0]!;
    await setVisibility(first, 'visible');
    await first.getByText('Watching', { exact: true }).first().waitFor({ timeout: 20_000 });
    expect((await callBridge(app, 'watch.pause')).status).toBe(200);
    await first.getByText('Paused', { exact: true }).first().waitFor({ timeout: 20_000 });
    // Given up on purpose, the stream was not said to be lost.
    expect(await first.getByText(/lost/i).count()).toBe(0);
  }, 180_000);

  it('a tab opened in the background shows what happened meanwhile once it is first shown', async () => {
    const tab = await context.newPage();
    // Opened in the background (a middle click, a restored session): hidden from its first script on.
    await tab.addInitScript(() => Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true }));
    await tab.goto(`${app.origin}/`);
    await appShown(tab);
    await tab.getByText('Paused', { exact: true }).first().waitFor({ timeout: 20_000 });
    // While it is hidden (no event stream), the watch is resumed elsewhere.
    expect((await callBridge(app, 'watch.resume')).status).toBe(200);
    await setVisibility(tab, 'visible');
    await tab.getByText('Watching', { exact: true }).first().waitFor({ timeout: 20_000 });
    await tab.close();
  }, 120_000);
});
