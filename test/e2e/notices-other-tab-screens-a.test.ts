/**
 * The message that a file was refused, in two tabs of browser mode on one core (a real service, keychain and folder):
 * both tabs show it, and once the clerk puts the mended file back in the queue in one tab, the other tab drops it too
 * (the core queues the file again as a new job, which every tab hears of), while the message about another refused
 * file stays in both.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { signedInWorld, visit } from './screens-a-kit';

const PUT_BACK = 'census-mended.csv';
const LEFT = 'census-left.csv';

describe('Messages about a refused file in two tabs (browser mode, one core)', () => {
  // Checks set to block: a file with a bad row is refused for it.
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000, preflight: 'block' });
  const refused = (page: Page, name: string) =>
    page.getByRole('region', { name: 'Messages' }).getByText(`${name} was refused`, { exact: false });

  it('drops the message in the other tab once the file is put back in one', async () => {
    const { world, ui, page, errors } = signedIn;
    const other = await world.open(ui);
    try {
      await other.page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
      await writeFile(join(world.folder, PUT_BACK), csvText('census', [censusRow(1), censusRow(2, { hireDate: '2020-13-45' })]));
      await writeFile(join(world.folder, LEFT), csvText('census', [censusRow(3), censusRow(4, { employeeStatus: 'RETIRED' })]));
      for (const tab of [page, other.page]) {
        await refused(tab, PUT_BACK).waitFor({ timeout: 60_000 });
        await refused(tab, LEFT).waitFor({ timeout: 60_000 });
      }

      // In the first tab the clerk mends the file where it lies in rejected/ and puts it back from its drawer.
      await writeFile(join(world.folder, 'rejected', PUT_BACK), csvText('census', [censusRow(1), censusRow(2)]));
      await page.getByRole('link', { name: 'History' }).click();
      const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: PUT_BACK, exact: true }) });
      await row.filter({ hasText: 'Refused' }).getByRole('button', { name: PUT_BACK }).click();
      const dialog = page.getByRole('dialog', { name: PUT_BACK });
      await dialog.getByRole('button', { name: 'Put back in the queue' }).click();
      const back = dialog.getByRole('status').filter({ hasText: 'The file is back in the queue.' });
      await back.waitFor();
      // This tab drops the message at once, and the focus stays in the drawer.
      await refused(page, PUT_BACK).waitFor({ state: 'detached' });
      await expect.poll(() => back.evaluate((el) => el === document.activeElement)).toBe(true);

      // The other tab, which did nothing, no longer says the file was refused: it is back in the queue.
      await refused(other.page, PUT_BACK).waitFor({ state: 'detached' });
      // The other refused file was not put back: its message stays in both tabs.
      expect(await refused(other.page, LEFT).count()).toBe(1);
      expect(await refused(page, LEFT).count()).toBe(1);
      await visit(other.page, 'notices-other-tab-after-put-back');

      // The mended file goes on to be uploaded, and no tab is told again that it was refused.
      await other.page.getByRole('link', { name: 'History' }).click();
      await other.page.getByRole('row').filter({ hasText: PUT_BACK }).filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
      expect(await refused(other.page, PUT_BACK).count()).toBe(0);
      expect(await refused(page, PUT_BACK).count()).toBe(0);
      expect(errors).toEqual([]);
      expect(other.errors).toEqual([]);
    } finally {
      await other.close();
    }
  }, 180_000);
});
