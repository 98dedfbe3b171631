/**
 * The list of screens on a narrow window (or at 200 % zoom), in Chromium against browser mode: opening it puts the
 * focus in it, Tab never reaches the screen it covers, and Escape closes it and gives the focus back to its button.
 */
import { describe, expect, it } from 'vitest';
import { signedInWorld } from './screens-a-kit';

describe('the list of screens on a narrow window (Chromium)', () => {
  const signedIn = signedInWorld();

  it('takes the focus, keeps Tab inside what is visible, and closes on Escape', async () => {
    const { page, errors } = signedIn;
    await page.setViewportSize({ width: 640, height: 700 });
    const opener = page.getByRole('button', { name: 'Open the list of screens' });
    await opener.click();
    const nav = page.getByRole('navigation', { name: 'Screens' });
    await nav.getByRole('link', { name: 'Queue' }).waitFor();
    // The open screen's link has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Queue');

    // However far the clerk tabs, the focus stays on what can be seen: the list and the header, never the screen under it.
    const inMain: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        const active = document.activeElement;
        return active && document.getElementById('main')?.contains(active) ? active.textContent ?? active.tagName : undefined;
      });
      if (where !== undefined) inMain.push(where);
    }
    expect(inMain).toEqual([]);

    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open the list of screens' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open the list of screens');
    expect(errors).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 860 });
  }, 120_000);
});
