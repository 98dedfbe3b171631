/**
 * The Settings screen as the desktop app shows it, in Chromium. The Electron preload cannot run here, so the page gets
 * a stand-in for its `window.payroll` that says `platform: 'desktop'` and forwards each call to the ui's own HTTP
 * bridge; the screens, the core and the settings file are real.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser';
import type { UiApp } from '../helpers/ui-app';
import { checkZoom, firstRun, startWorld, visit, type World } from './screens-a-kit';

/** The preload's bridge as the renderer sees it, over the ui's HTTP bridge with its token. */
const desktopPreload = (token: string) => `globalThis.payroll = {
  platform: 'desktop',
  async call(method, request) {
    const response = await fetch('/bridge/' + method, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ${token}' }, body: JSON.stringify(request),
    });
    const body = await response.json();
    if (body.ok) return body.result;
    throw body;
  },
  on: () => () => undefined,
};`;

describe('Settings in the desktop app (Chromium, a stand-in for the preload)', () => {
  let world: World;
  let ui: UiApp | undefined;
  beforeAll(async () => {
    world = await startWorld();
  }, 120_000);
  afterAll(async () => {
    await ui?.stop();
    await world?.stop();
  });

  it('turns start at login on and off, saved in the settings file', async () => {
    ui = await world.startUi();
    const opened = await openPage(world.browser);
    const { page } = opened;
    await page.addInitScript(desktopPreload(ui.token));
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(ui.url);
    await firstRun(page, world);
    await page.getByRole('link', { name: 'Settings' }).click();

    const section = page.getByRole('region', { name: 'Start at login' });
    const toggle = section.getByRole('switch', { name: 'Open Payroll Uploader when I log in' });
    expect(await toggle.isChecked()).toBe(false);
    // The switch moves once the core has saved the choice (so not check(), which wants it moved at once).
    await toggle.click();
    await section.getByText('Payroll Uploader will open when you log in.').waitFor();
    expect(await toggle.isChecked()).toBe(true);
    const settingsFile = join(world.dataDir, 'settings.json');
    expect(JSON.parse(await readFile(settingsFile, 'utf8'))).toMatchObject({ startAtLogin: true });
    // The click scrolled the page; a full-page picture is taken from the top, or the sticky header lands mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await visit(page, 'settings-desktop-start-at-login');
    await checkZoom(page, 'settings-desktop-start-at-login');

    await toggle.click();
    await section.getByText('Payroll Uploader will not open when you log in.').waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect(JSON.parse(await readFile(settingsFile, 'utf8'))).toMatchObject({ startAtLogin: false });
    expect(opened.errors).toEqual([]);
    await opened.close();
  }, 180_000);
});
