/**
 * The messages above the screens for the keyboard and a screen reader, in Chromium against browser mode with a real
 * core and folder: each message is said once as it comes (not the whole list again), each Dismiss button is named
 * after its message, and a dismissal hands the focus on to the next message, or to the screen once none is left.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { announced, forgetAnnouncements, nestedLiveRegions, recordAnnouncements } from '../../renderer/test-kit/announcements';
import { allAxeViolations } from './axe-kit';
import { checkZoom, signedInWorld, visit } from './screens-a-kit';

const notCsv = (name: string) => `${name} is not a CSV export, so it is not uploaded; it stays in the watched folder. Save the export as CSV to send it.`;
const nested = (page: Page) => page.evaluate(`(${nestedLiveRegions.toString()})().map((region) => region.outerHTML.slice(0, 120))`);
const focused = (page: Page) => page.evaluate(() => {
  const active = document.activeElement;
  return active?.id === 'main' ? '#main' : active?.getAttribute('aria-label') ?? active?.textContent ?? '';
});

describe('Messages for the keyboard and a screen reader (Chromium)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 }, () => `(${recordAnnouncements.toString()})();`);

  it('says each message once as it comes, names each Dismiss button after it, and hands the focus on', async () => {
    const { world, page, errors } = signedIn;
    const messages = page.getByRole('region', { name: 'Messages' });
    // What the first run said is not what this test is about.
    await page.evaluate(forgetAnnouncements);
    await writeFile(join(world.folder, 'payroll-a.xlsx'), 'not a csv');
    await messages.getByText(notCsv('payroll-a.xlsx')).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.evaluate(announced)).toEqual([notCsv('payroll-a.xlsx')]);
    await page.evaluate(forgetAnnouncements);

    // Two more: each is said by itself, and what was there already is not said again.
    await writeFile(join(world.folder, 'payroll-b.xlsx'), 'not a csv');
    await messages.getByText(notCsv('payroll-b.xlsx')).waitFor({ timeout: 30_000 });
    await writeFile(join(world.folder, 'payroll-c.xlsx'), 'not a csv');
    await messages.getByText(notCsv('payroll-c.xlsx')).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.evaluate(announced)).toEqual([notCsv('payroll-b.xlsx'), notCsv('payroll-c.xlsx')]);
    expect(await nested(page)).toEqual([]);

    // Newest first, each Dismiss button named after its message.
    const dismissNames = () => messages.getByRole('listitem').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
    expect(await dismissNames()).toEqual([
      'Dismiss: payroll-c.xlsx is not a CSV export…', 'Dismiss: payroll-b.xlsx is not a CSV export…', 'Dismiss: payroll-a.xlsx is not a CSV export…',
    ]);
    await visit(page, 'notices-keyboard-three');
    expect(await allAxeViolations(page)).toEqual([]);
    await checkZoom(page, 'notices-keyboard-three');

    // Dismissed with the keyboard: the focus goes to the message that takes its place, and nothing is said of it.
    await page.evaluate(forgetAnnouncements);
    await messages.getByRole('button', { name: 'Dismiss: payroll-b.xlsx is not a CSV export…' }).focus();
    await page.keyboard.press('Enter');
    await messages.getByText(notCsv('payroll-b.xlsx')).waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('Dismiss: payroll-a.xlsx is not a CSV export…');
    await visit(page, 'notices-keyboard-after-dismiss');

    // Dismiss all: the focus goes to the screen, and the next Tab goes on into it.
    await messages.getByRole('button', { name: 'Dismiss all messages' }).focus();
    await page.keyboard.press('Enter');
    await messages.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('#main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.getElementById('main')?.contains(document.activeElement))).toBe(true);
    expect(await page.evaluate(announced)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
