/**
 * What the end-to-end flows of the Send records, Deliveries and Local server screens share: the app in browser mode
 * with its embedded local server and a private keychain, a screen opened from the navigation, and screenshots in
 * light and dark under test-results/. Their axe-core scans are axe-kit's: the whole page, frame included, every impact.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { ROOT, tempDir } from '../helpers/local-server';
import { callBridge, signIn, startUiApp, type UiApp } from '../helpers/ui-app';

export const SCREENSHOTS = join(ROOT, 'test-results');

export type ScreensWorld = {
  app: UiApp;
  browser: Browser;
  page: Page;
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
  /** Calls a bridge method as the page would, failing on an error answer. */
  bridge<T = unknown>(method: string, request?: unknown): Promise<T>;
  close(): Promise<void>;
};

export async function startScreensWorld(): Promise<ScreensWorld> {
  const keyring: KeyringHandle = await startKeyring();
  const watched = await tempDir('payroll-watched-');
  const app = await startUiApp({
    localServer: true,
    env: keyring.env,
    settings: { watchedFolder: watched, stabilityMs: 300, sweepIntervalMs: 1000, activeProfile: 'local' },
  });
  const browser = await launchBrowser();
  const { page, errors, close } = await openPage(browser);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app);
  await mkdir(SCREENSHOTS, { recursive: true });
  return {
    app, browser, page, errors,
    async bridge<T>(method: string, request: unknown = {}) {
      const answer = await callBridge(app, method, request);
      const body = answer.body as { ok: boolean; result?: T; error?: unknown };
      if (!body.ok) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
      return body.result as T;
    },
    async close() {
      await close();
      await browser.close();
      await app.stop();
      await keyring.stop();
      await rm(watched, { recursive: true, force: true });
    },
  };
}

/** Opens a screen from the navigation, as a clerk would, and waits for its heading. */
export async function openScreen(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 2, name }).waitFor();
}

/** Saves `<name>-light.png` and `<name>-dark.png` of the whole page under test-results/. */
export async function screenshots(page: Page, name: string): Promise<void> {
  // The header is fixed: a page scrolled by focusing a field would put it in the middle of a full-page picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  // A dialog still fading in is half transparent: its picture would show the page through it.
  await page.waitForFunction(() => document.getAnimations()
    .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), undefined, { timeout: 10_000 });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${colorScheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
