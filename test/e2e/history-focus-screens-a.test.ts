/**
 * History worked from the keyboard, in Chromium against browser mode with a real core, service, keychain and folder:
 * the keyboard focus stays where the clerk put it. Show in folder keeps it while it works (a busy button that was
 * disabled lost it to the page, behind the open drawer); a control that goes away inside the drawer hands it to the
 * drawer's Close button; and a file that comes in while a row has the focus leaves it on the same file, so a drawer
 * opened and closed from there is that file's and gives the focus back to it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { busyButtons, FOCUSED_AND_BUSY, focused, hasFocus, holdsFocus, NOTE_BUSY_BUTTONS } from './focus-kit';
import { signedInWorld, visit } from './screens-a-kit';

const REFUSED = 'census-refused.csv';

/** How many files History counts. */
async function fileCount(page: Page): Promise<number> {
  const text = await page.getByText(/^\d+ files?$/).innerText();
  return Number(/^(\d+)/.exec(text)![1]);
}

describe('History: the keyboard focus stays where it was (Chromium)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 }, () => NOTE_BUSY_BUTTONS);
  const nameButton = (name: string) => signedIn.page.getByRole('table', { name: 'Finished files' }).getByRole('button', { name, exact: true });
  const dialog = (name: string) => signedIn.page.getByRole('dialog', { name });
  let added = 0;
  /** Saves a new good file into the folder and waits until History counts it. */
  const newFile = async () => {
    const { world, page } = signedIn;
    const before = await fileCount(page);
    added += 1;
    await writeFile(join(world.folder, `census-new-${added}.csv`), csvText('census', [censusRow(100 + 2 * added), censusRow(101 + 2 * added)]));
    await expect.poll(() => fileCount(page), { timeout: 60_000 }).toBe(before + 1);
  };

  it('keeps the focus on Show in folder while it works, so Tab stays in the drawer', async () => {
    const { world, page, errors } = signedIn;
    for (const n of [1, 2, 3]) {
      await writeFile(join(world.folder, `census-good-${n}.csv`), csvText('census', [censusRow(2 * n), censusRow(2 * n + 1)]));
    }
    await writeFile(join(world.folder, REFUSED), 'this,is,not\nthe,right,header\n');
    await page.getByRole('link', { name: 'History' }).click();
    await expect.poll(() => fileCount(page).catch(() => 0), { timeout: 60_000 }).toBe(4);

    await nameButton(REFUSED).focus();
    await page.keyboard.press('Enter');
    const drawer = dialog(REFUSED);
    const show = drawer.getByRole('button', { name: 'Show in folder' });
    await show.waitFor();
    await show.focus();
    await busyButtons(page);
    await page.keyboard.press('Enter');
    // In browser mode the path is shown, since a web page cannot open the file manager.
    await drawer.getByRole('status').filter({ hasText: 'The file is at ' }).waitFor();
    expect(await focused(page)).toBe('button "Show in folder"');
    // Busy, it was said to be busy and kept the focus.
    for (const noted of await busyButtons(page)) expect(noted).toEqual({ name: 'Show in folder', ...FOCUSED_AND_BUSY });
    await page.keyboard.press('Tab');
    expect(await holdsFocus(drawer)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await hasFocus(show)).toBe(true);
    await visit(page, 'history-show-in-folder-focus');

    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(nameButton(REFUSED))).toBe(true);
    expect(errors).toEqual([]);
  }, 180_000);

  it('gives the focus to the drawer\'s Close button when the control that had it goes away', async () => {
    const { page, errors } = signedIn;
    await nameButton(REFUSED).focus();
    await page.keyboard.press('Enter');
    const drawer = dialog(REFUSED);
    const show = drawer.getByRole('button', { name: 'Show in folder' });
    await show.focus();
    // The focused control is taken out of the page, as when what it worked on moves on.
    await show.evaluate((button) => button.remove());
    await expect.poll(() => hasFocus(drawer.getByRole('button', { name: 'Close' }))).toBe(true);
    // Tab goes on inside the drawer, not to the page behind it.
    await page.keyboard.press('Tab');
    expect(await holdsFocus(drawer)).toBe(true);

    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(nameButton(REFUSED))).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  it('keeps the focus on the same file when a new file comes in, and a drawer closed then gives it back to that file', async () => {
    const { page, errors } = signedIn;
    // An older file, below the newest: a new file moves it one row down.
    await nameButton('census-good-2.csv').focus();
    await newFile();
    await expect.poll(() => focused(page)).toBe('button "census-good-2.csv"');

    await page.keyboard.press('Enter');
    const drawer = dialog('census-good-2.csv');
    await drawer.waitFor();
    await newFile();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('button "census-good-2.csv"');
    expect(errors).toEqual([]);
  }, 180_000);
});
