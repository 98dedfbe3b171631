/**
 * A clerk's day on the Queue and History screens, end to end: a file that is not a CSV is left in place with a message;
 * a CSV dropped into the watched folder is seen in the
 * Queue and then as uploaded in History; with row checks set to block, a file with bad rows is refused and opens to
 * its reasons with their line numbers; mended in rejected/ and put back in the queue, it is uploaded.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { censusChunks, censusRow, csvText } from '../helpers/csv-fixtures';
import { checkZoom, SCREENSHOTS, signedInWorld, visit } from './screens-a-kit';

describe('Queue and History (browser mode, real service, keychain and folder)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 });

  it('shows a dropped CSV going through the Queue to uploaded in History', async () => {
    const { world, page } = signedIn;
    // A file that is not a CSV export is left where it is, and the clerk is told so.
    await writeFile(join(world.folder, 'payroll-november.xlsx'), 'PK not a csv');
    await page.getByRole('region', { name: 'Messages' }).getByText(/^payroll-november\.xlsx is not a CSV export, so it is not uploaded/)
      .waitFor({ timeout: 30_000 });
    expect(existsSync(join(world.folder, 'payroll-november.xlsx'))).toBe(true);
    // Big enough (about 40 MB) that its checking and upload take a moment on screen.
    const path = join(world.folder, 'census-november.csv');
    await pipeline(Readable.from(censusChunks(40 * 1024 * 1024)), createWriteStream(`${path}.part`));
    await import('node:fs/promises').then((fs) => fs.rename(`${path}.part`, path));

    const queue = page.getByRole('list', { name: 'Files in the queue' });
    const item = queue.getByRole('listitem').filter({ hasText: 'census-november.csv' });
    await item.waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SCREENSHOTS, 'queue-in-flight-light.png') });
    await page.getByRole('heading', { name: 'Nothing waiting' }).waitFor({ timeout: 120_000 });

    await page.getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: 'census-november.csv' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toMatch(/Uploaded.*Census/);
    await visit(page, 'history-uploaded');
    await row.getByRole('button', { name: 'census-november.csv' }).click();
    const dialog = page.getByRole('dialog', { name: 'census-november.csv' });
    await dialog.getByText(/^Uploaded to Local test server \(http:\/\/127\.0\.0\.1:\d+\) as client .+: that service holds this exact file\.$/).waitFor();
    await visit(page, 'history-uploaded-detail');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  }, 240_000);

  it('shows a refused file with its reasons and line numbers', async () => {
    const { world, page, errors } = signedIn;
    await page.getByRole('link', { name: 'Settings' }).click();
    const files = page.getByRole('form', { name: 'Files' });
    await files.getByRole('radio', { name: /^Block/ }).check();
    await files.getByRole('button', { name: 'Save' }).click();
    await files.getByText('Saved.').waitFor();

    const rows = [censusRow(1), censusRow(2, { hireDate: '2020-13-45' }), censusRow(3), censusRow(4, { employeeStatus: 'RETIRED' })];
    await writeFile(join(world.folder, 'census-with-errors.csv'), csvText('census', rows));

    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('searchbox', { name: 'Search by file name' }).fill('errors');
    const row = page.getByRole('row').filter({ hasText: 'census-with-errors.csv' });
    await row.waitFor({ timeout: 60_000 });
    await expect.poll(() => row.textContent()).toContain('Refused');
    await page.getByRole('combobox', { name: 'Outcome' }).selectOption({ label: 'Refused' });
    await expect.poll(() => page.getByText(/^\d+ files?$/).textContent()).toBe('1 file');
    await visit(page, 'history-refused');
    // The rows that refused it are errors, wide and narrow (200 % zoom, where the headings are hidden).
    expect(await row.innerText()).toMatch(/\b2 errors\b/);
    const wide = page.viewportSize()!;
    await page.setViewportSize({ width: 640, height: 430 });
    await expect.poll(() => row.innerText()).toMatch(/\b2 errors\b/);
    await page.setViewportSize(wide);
    await checkZoom(page, 'history-refused');

    await row.getByRole('button', { name: 'census-with-errors.csv' }).click();
    const dialog = page.getByRole('dialog', { name: 'census-with-errors.csv' });
    await dialog.getByText('Why it was refused').waitFor();
    await dialog.getByText(/2 of 4 rows have problems/).waitFor();
    const table = dialog.getByRole('table', { name: 'Rows with problems' });
    const lines = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) =>
      [...td.querySelectorAll('[data-part]')].map((part) => part.textContent).join(' / ') || td.textContent)));
    // The field as the forms label it, with the CSV column's name below it.
    expect(lines).toEqual([
      ['3', 'Hire date / hireDate', expect.stringMatching(/^Hire date must be /)],
      ['5', 'Employee status / employeeStatus', expect.stringMatching(/^Employee status must be one of /)],
    ]);
    await visit(page, 'history-refused-detail');

    await dialog.getByRole('button', { name: 'Show in folder' }).click();
    const where = dialog.getByRole('status').filter({ hasText: 'The file is at' }).locator('code');
    await where.waitFor();
    const refusedPath = (await where.textContent()) ?? '';
    expect(refusedPath).toBe(join(world.folder, 'rejected', 'census-with-errors.csv'));

    // The clerk mends the file where it lies in rejected/ and puts it back; the mended version is uploaded.
    await writeFile(refusedPath, csvText('census', [censusRow(1), censusRow(2), censusRow(3), censusRow(4)]));
    await dialog.getByRole('button', { name: 'Put back in the queue' }).click();
    await dialog.getByText('The file is back in the queue.', { exact: false }).waitFor();
    await expect.poll(() => dialog.getByRole('button', { name: 'Put back in the queue' }).count()).toBe(0);
    await expect.poll(() => where.count()).toBe(0);
    await visit(page, 'history-requeued-detail');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('combobox', { name: 'Outcome' }).selectOption({ label: 'Uploaded' });
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toMatch(/Uploaded/);
    await expect.poll(() => existsSync(refusedPath)).toBe(false);
    expect(errors).toEqual([]);
  }, 180_000);
});
