/**
 * The list of screens on a narrow window (or at 200 % zoom), in Chromium against browser mode: opening it puts the
 * focus in it, Tab never reaches the screen it covers, and Escape closes it and gives the focus back to its button.
 * Closed, it is out of the Tab order (its links are out of sight); a screen chosen in it closes it and takes the focus.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { allAxeViolations } from './axe-kit';
import { signedInWorld, visit } from './screens-a-kit';

/** Where the focus is: in the list of screens or not, the element's words, and whether it is in the window at all. */
const focusNow = (page: Page) => page.evaluate(() => {
  const active = document.activeElement as HTMLElement | null;
  const box = active?.getBoundingClientRect();
  return {
    inList: active?.closest('#app-navigation') !== null,
    id: active?.id,
    text: (active?.getAttribute('aria-label') ?? active?.textContent ?? '').trim().slice(0, 40),
    inSight: box !== undefined && box.right > 0 && box.bottom > 0 && box.left < window.innerWidth && box.top < window.innerHeight,
  };
});

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

  it('leaves the closed list out of the Tab order, and after a choice closes it and takes the focus to the chosen screen', async () => {
    const { page, errors } = signedIn;
    // 200 % zoom of a 1280 × 860 window.
    await page.setViewportSize({ width: 640, height: 430 });
    try {
      const opener = page.getByRole('button', { name: 'Open the list of screens' });
      await opener.waitFor();
      expect(await opener.getAttribute('aria-expanded')).toBe('false');

      // Closed, its links are out of sight: Tab goes from the button on into the screen, always to something in sight.
      await opener.focus();
      const reached = [];
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        reached.push(await focusNow(page));
      }
      expect(reached.filter((where) => where.inList || !where.inSight)).toEqual([]);

      // Chosen in the open list, a screen opens with the focus on it, the list closed behind it.
      await opener.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focusNow(page)).toMatchObject({ inList: true, text: 'Queue' });
      await page.keyboard.press('Tab');
      expect(await focusNow(page)).toMatchObject({ inList: true, text: 'History' });
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'History', level: 2 }).waitFor();
      await expect.poll(() => focusNow(page)).toMatchObject({ inList: false, id: 'main', inSight: true });
      expect(await opener.getAttribute('aria-expanded')).toBe('false');
      await visit(page, 'narrow-nav-chosen-zoom200');
      expect(await allAxeViolations(page)).toEqual([]);
      // The next Tab goes on in the screen, not back into the list.
      await page.keyboard.press('Tab');
      expect(await focusNow(page)).toMatchObject({ inList: false, inSight: true });

      // Open, the list is drawn over the screen (the picture of it, in both colour schemes).
      await opener.click();
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Queue' }).waitFor();
      await visit(page, 'narrow-nav-open-zoom200');
      await page.keyboard.press('Escape');
      expect(errors).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  }, 120_000);
});
