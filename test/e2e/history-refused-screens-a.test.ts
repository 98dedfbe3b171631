/**
 * A refused file on History and in its drawer, in Chromium against browser mode with a real core, service, keychain
 * and folder: its row problems counted as errors (an uploaded file's as the rows the service refused), the drawer clean for axe-core
 * whatever the impact (no second banner landmark), and the file put back in the queue from the keyboard: focus stays
 * in the drawer on the word that it is back, the message that it was refused goes, and the drawer's facts say where
 * it went back rather than that it is filed in rejected/.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { callBridge } from '../helpers/ui-app';
import { allAxeViolations, settled } from './axe-kit';
import { signedInWorld, visit } from './screens-a-kit';

const REFUSED = 'census-with-errors.csv';

describe('History: a refused file (browser mode, real service, keychain and folder)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 });
  const row = (name: string) => signedIn.page.getByRole('row').filter({ has: signedIn.page.getByRole('button', { name, exact: true }) });
  const dialog = () => signedIn.page.getByRole('dialog', { name: REFUSED });
  const refusedNotice = () => signedIn.page.getByRole('region', { name: 'Messages' }).getByText(`${REFUSED} was refused`, { exact: false });

  it('counts a refused file\'s row problems as errors and an uploaded file\'s as the rows the service refused', async () => {
    const { world, ui, page } = signedIn;
    // Checks set to warn: a file with a bad row is uploaded with a warning.
    await writeFile(join(world.folder, 'census-warned.csv'), csvText('census', [censusRow(1), censusRow(2, { hireDate: '2020-13-45' })]));
    await page.getByRole('link', { name: 'History' }).click();
    await row('census-warned.csv').filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
    // Checks set to block: a file with two bad rows is refused for them.
    expect((await callBridge(ui, 'settings.patch', { preflight: 'block' })).status).toBe(200);
    await writeFile(join(world.folder, REFUSED), csvText('census', [
      censusRow(1), censusRow(2, { hireDate: '2020-13-45' }), censusRow(3), censusRow(4, { employeeStatus: 'RETIRED' }),
    ]));
    await row(REFUSED).filter({ hasText: 'Refused' }).waitFor({ timeout: 60_000 });

    const problems = page.getByRole('columnheader', { name: 'Problems' });
    await problems.waitFor();
    expect(await page.getByRole('columnheader', { name: 'Warnings' }).count()).toBe(0);
    const cells = async (name: string) => (await row(name).getByRole('cell').allInnerTexts()).map((text) => text.trim());
    expect((await cells(REFUSED))[5]).toBe('2 errors');
    // Uploaded with its warning, the file was processed by the local test server, which says what it made of it: the
    // warned row refused. Once that is known the count says it rather than the warning that foretold it.
    await expect.poll(async () => (await cells('census-warned.csv'))[5]).toBe('1 of 2 rows refused');
    await visit(page, 'history-row-problems');
    // Narrow (200 % zoom), the headings are hidden: the row says it all the same.
    const wide = page.viewportSize()!;
    await page.setViewportSize({ width: 640, height: 430 });
    await expect.poll(() => row(REFUSED).innerText()).toMatch(/\b2 errors\b/);
    expect(await row(REFUSED).innerText()).not.toMatch(/warning/);
    await page.setViewportSize(wide);
  }, 180_000);

  it('opens the drawer with no axe-core violation of any impact', async () => {
    const { page } = signedIn;
    await row(REFUSED).getByRole('button', { name: REFUSED }).click();
    await dialog().getByText('Why it was refused').waitFor();
    await settled(page);
    // One banner: the app's header. The drawer's title bar is no landmark of its own.
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await allAxeViolations(page)).toEqual([]);
    await visit(page, 'history-refused-drawer');
  }, 60_000);

  it('puts the mended file back from the keyboard: focus stays in the drawer, and the refused message goes', async () => {
    const { world, page, errors } = signedIn;
    if (!(await dialog().isVisible())) await row(REFUSED).getByRole('button', { name: REFUSED }).click();
    await dialog().getByText('Why it was refused').waitFor();
    await refusedNotice().waitFor();

    // The clerk mends the file where it lies in rejected/, then puts it back with the keyboard.
    await writeFile(join(world.folder, 'rejected', REFUSED), csvText('census', [censusRow(1), censusRow(2), censusRow(3), censusRow(4)]));
    await dialog().getByRole('button', { name: 'Put back in the queue' }).focus();
    await page.keyboard.press('Enter');
    const back = dialog().getByRole('status').filter({ hasText: 'The file is back in the queue.' });
    await back.waitFor();
    await expect.poll(() => dialog().getByRole('button', { name: 'Put back in the queue' }).count()).toBe(0);

    // Focus went to what took the button's place, not to the page behind the drawer.
    await expect.poll(() => back.evaluate((el) => el === document.activeElement)).toBe(true);
    // And Tab goes on inside the drawer (its focus trap), not from the top of the page.
    await page.keyboard.press('Tab');
    expect(await dialog().evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await dialog().evaluate((el) => el.contains(document.activeElement))).toBe(true);

    // "was refused" no longer holds: the file is back in the queue.
    await expect.poll(() => refusedNotice().count()).toBe(0);
    // Nor does "Filed in …/rejected/…": the facts say where it went back, and the help no longer sends the clerk to rejected/.
    const fact = (label: string) => dialog().getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
    expect(await fact('Put back in the queue as').getByRole('cell').innerText()).toBe(join(world.folder, REFUSED));
    expect(await fact('Filed in').count()).toBe(0);
    expect(await dialog().getByText(join(world.folder, 'rejected', REFUSED), { exact: true }).count()).toBe(0);
    expect(await dialog().getByText('it is in the rejected folder', { exact: false }).count()).toBe(0);
    await settled(page);
    expect(await allAxeViolations(page)).toEqual([]);
    await visit(page, 'history-requeued-focus');

    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    await page.getByRole('row').filter({ hasText: REFUSED }).filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
  }, 120_000);
});
