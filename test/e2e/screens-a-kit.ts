/**
 * What the screens-A flows start for real: a private gnome-keyring, a local server (the service), a watched folder,
 * `payroll-uploader ui` (browser mode) on its own data folder, and Debian's Chromium. Also the screenshot and axe
 * helpers every flow uses on each screen it visits.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SettingsInput } from '../../shared/settings.schema';
import { launchBrowser, openPage } from '../helpers/browser';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { ROOT, startTestServer, TEST_CLIENT, type TestServer } from '../helpers/local-server';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app';
import { settled } from './axe-kit';

export { TEST_CLIENT };
export const SCREENSHOTS = join(ROOT, 'test-results', 'screens-a');

export type World = {
  keyring: KeyringHandle;
  server: TestServer;
  dataDir: string;
  folder: string;
  browser: Browser;
  /** Starts `payroll-uploader ui` on the world's data folder (settings, if given, are written first). */
  startUi(settings?: SettingsInput): Promise<UiApp>;
  /**
   * A fresh browser page signed in to the ui, at the size of a laptop screen; `pageScript` runs in it before the
   * app's own scripts (desktopPreload).
   */
  open(ui: UiApp, pageScript?: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }>;
  stop(): Promise<void>;
};

/** A private keychain, a real service (local server), a data folder, a watched folder and Debian's Chromium. */
export async function startWorld(): Promise<World> {
  const keyring = await startKeyring();
  const server = await startTestServer();
  const root = await mkdtemp(join(tmpdir(), 'screens-a-'));
  const dataDir = join(root, 'data');
  const folder = join(root, 'exports');
  await mkdir(folder);
  const browser = await launchBrowser();
  return {
    keyring, server, dataDir, folder, browser,
    startUi: (settings) => startUiApp({ env: keyring.env, dataDir, ...(settings ? { settings } : {}) }),
    async open(ui, pageScript) {
      const opened = await openPage(browser);
      if (pageScript) await opened.page.addInitScript(pageScript);
      await opened.page.setViewportSize({ width: 1280, height: 860 });
      // A new one-time address for each page: the printed one signs in one browser only.
      await signIn(opened.page, ui);
      return opened;
    },
    async stop() {
      await browser.close();
      await server.stop();
      await keyring.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A world with the ui running and a page past the first run, for the tests of one describe block. */
export type SignedIn = { world: World; ui: UiApp; page: Page; errors: string[] };

/**
 * The Electron preload cannot run here: this stands in for its `window.payroll` in a page of the ui, saying
 * `platform: 'desktop'` and forwarding each call to the ui's own HTTP bridge, so the screens show what the desktop
 * app shows while the core and its files stay real.
 */
export const desktopPreload = (ui: UiApp): string => `globalThis.payroll = {
  platform: 'desktop',
  async call(method, request) {
    const response = await fetch('/bridge/' + method, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ${ui.token}' }, body: JSON.stringify(request),
    });
    const body = await response.json();
    if (body.ok) return body.result;
    throw body;
  },
  on: () => () => undefined,
};`;

/**
 * Registers, in the calling describe block, a world started and a page taken through the first run before its
 * tests (the ui started with `settings`, the page given `pageScript` of it), and all of it stopped after them. The
 * fields are set once beforeAll ran.
 */
export function signedInWorld(settings?: SettingsInput, pageScript?: (ui: UiApp) => string): SignedIn {
  const signedIn = {} as SignedIn;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    signedIn.world = await startWorld();
    signedIn.ui = await signedIn.world.startUi(settings);
    const opened = await signedIn.world.open(signedIn.ui, pageScript?.(signedIn.ui));
    ({ page: signedIn.page, errors: signedIn.errors, close } = opened);
    await firstRun(signedIn.page, signedIn.world);
  }, 180_000);
  afterAll(async () => {
    await close?.();
    await signedIn.ui?.stop();
    await signedIn.world?.stop();
  });
  return signedIn;
}

/**
 * Screenshots the page in light and dark under test-results/screens-a/, and scans it with axe-core in both: no serious
 * or critical violation is allowed.
 */
export async function visit(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  // A drawer still sliding in is half transparent: its picture shows the page through it and axe measures blends.
  await settled(page);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // The switch of scheme starts the colours' transitions: axe measuring a contrast half-way (a loaded machine is
    // still in them after any fixed wait) finds a colour of neither scheme.
    await settled(page);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${scheme}.png`), fullPage: true });
    expect(await seriousAxeViolations(page), `${name} in ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** axe-core's serious and critical violations on the page as it is, one line each. */
async function seriousAxeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
}

/**
 * The page at 200 % zoom of a 1280 px window (640 CSS pixels wide): nothing may need sideways scrolling, and axe finds
 * no serious or critical violation there either. Saves the screenshot as <name>-zoom200-light.png and puts the window
 * back.
 */
export async function checkZoom(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 640, height: 430 });
  try {
    await page.waitForTimeout(200);
    // What the narrow window set moving (the navigation folding away) has stopped before it is pictured and measured.
    await settled(page);
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-zoom200-light.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at 200 % zoom scrolls sideways`).toBeLessThanOrEqual(0);
    // Narrow, tables scroll sideways inside their own region: it must be reachable by keyboard, and so on.
    expect(await seriousAxeViolations(page), `${name} at 200 % zoom`).toEqual([]);
  } finally {
    if (size) await page.setViewportSize(size);
  }
}

/** The clerk's first-run set-up against the world's service, ending on the Queue. */
export async function firstRun(page: Page, world: World, shots = false): Promise<void> {
  await page.getByRole('heading', { name: 'Welcome to Payroll Uploader' }).waitFor();
  if (shots) await visit(page, 'first-run-1-environment');
  await page.getByRole('radio', { name: /^Local test server/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'Connect to Local test server' }).waitFor();
  await page.getByLabel('Base URL').fill(world.server.url);
  await page.getByLabel('Client ID').fill(TEST_CLIENT.id);
  await page.getByLabel('Client secret', { exact: true }).fill(TEST_CLIENT.secret);
  await page.getByRole('button', { name: 'Save and test connection' }).click();
  await page.getByText(/^Connected in \d+ ms/).waitFor();
  if (shots) await visit(page, 'first-run-2-credentials');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Watched folder' }).fill(world.folder);
  if (shots) await visit(page, 'first-run-3-folder');
  await page.getByRole('button', { name: 'Start watching this folder' }).click();
  await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
}
