/**
 * axe-core's every violation, whatever its impact, for the states that must be clean of them all (a drawer or a
 * dialog open over a screen: the kits' scans let moderate ones such as a second banner landmark through).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Every axe-core violation on the whole page, in light and in dark, one line each; the page is left in light. */
export async function allAxeViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // A switch of scheme starts the colours' CSS transitions: measured half-way, a contrast is neither scheme's.
    await settled(page);
    const result = await new AxeBuilder({ page }).analyze();
    for (const v of result.violations) {
      found.push(`${scheme}: ${v.id} (${v.impact ?? 'no impact'}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** Waits until nothing on the page is moving (a drawer sliding in is half transparent, and axe measures blends). */
export async function settled(page: Page): Promise<void> {
  // A change just made (a colour scheme emulated, a click) starts its transitions only when the browser next works out
  // the styles: after two frames they are running, and are waited for, instead of starting after the check.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await page.waitForFunction(() => document.getAnimations()
    .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), undefined, { timeout: 10_000 });
}
