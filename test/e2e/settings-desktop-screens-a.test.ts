/**
 * The Settings screen as the desktop app shows it, in Chromium: the page has a stand-in for the Electron preload
 * (desktopPreload); the screens, the core and the settings file are real.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contrast } from '../../renderer/test-kit/contrast';
import { settled } from './axe-kit';
import { checkZoom, desktopPreload, signedInWorld, visit } from './screens-a-kit';

describe('Settings in the desktop app (Chromium, a stand-in for the preload)', () => {
  const signedIn = signedInWorld(undefined, desktopPreload);

  it('turns start at login on and off, saved in the settings file', async () => {
    const { page, world, errors } = signedIn;
    await page.getByRole('link', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'Start at login' });
    const toggle = section.getByRole('switch', { name: 'Open Payroll Uploader when I log in' });
    expect(await toggle.isChecked()).toBe(false);
    // Off, its track stands out from the page and from its thumb (3:1, WCAG 1.4.11), in both schemes.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // The track's colour moves to the scheme's in a transition: measured at once, it is a blend of the two.
      await settled(page);
      const colours = await section.locator('.mantine-Switch-track').evaluate((track) => ({
        track: getComputedStyle(track).backgroundColor,
        thumb: getComputedStyle(track.querySelector('.mantine-Switch-thumb') ?? track).backgroundColor,
        page: getComputedStyle(document.body).backgroundColor,
      }));
      expect(contrast(colours.track, colours.page), `${scheme}: ${JSON.stringify(colours)}`).toBeGreaterThanOrEqual(3);
      expect(contrast(colours.track, colours.thumb), `${scheme}: ${JSON.stringify(colours)}`).toBeGreaterThanOrEqual(3);
    }
    await page.emulateMedia({ colorScheme: 'light' });
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
    expect(errors).toEqual([]);
  }, 120_000);
});
