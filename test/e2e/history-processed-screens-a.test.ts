/**
 * History says what the local test server made of a batch or file once it arrived: a receipt batch whose one record
 * names an employee registration no census carried is "Sent" and "1 of 1 record refused", with the reason in the
 * form's words; a file with such a row says "1 of 2 rows refused", and its drawer lists the row with its line. Both
 * appear on the open screen as the results come. In Chromium against browser mode with the test server built into the
 * app, a real keychain and folder.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { receiptRow, csvText, censusRow } from '../helpers/csv-fixtures';
import { callBridge } from '../helpers/ui-app';
import { signedInWorld, visit } from './screens-a-kit';

const FILE = 'receipts-march.csv';
const UNKNOWN = 'Employee registration E-ACC-1 is not known from any census import; send the employee\'s census record first';

describe('History: what the service made of a batch or file once it arrived (browser mode, built-in server)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 });

  it('says a sent receipt batch\'s record was refused, and why, as the result comes', async () => {
    const { ui, page } = signedIn;
    // The test server built into the app, as the audit's clerk had it: the Local environment now names it.
    const started = await callBridge(ui, 'localServer.start', {});
    expect(started.body).toMatchObject({ ok: true, result: { running: true } });
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByText('Sent records', { exact: true }).click();
    await page.getByRole('heading', { name: 'No records sent yet' }).waitFor();

    // Sent while the clerk looks at Sent records: the row comes, then what the service made of it.
    const sent = await callBridge(ui, 'batches.send', { kind: 'receipt', records: [receiptRow(1, { employeeRegistration: 'E-ACC-1' })] });
    expect(sent.body).toMatchObject({ ok: true, result: { ok: true } });
    const table = page.getByRole('table', { name: 'Batches of records sent' });
    const row = table.getByRole('row').filter({ hasText: 'Receipt batch 1' });
    await row.filter({ hasText: '1 of 1 record refused' }).waitFor({ timeout: 30_000 });
    const cells = (await row.getByRole('cell').allInnerTexts()).map((text) => text.trim());
    // The outcome stays true (it arrived); the refusal is a second fact beside it, and the reason names the record.
    expect(cells[1]).toMatch(/^Sent\s+1 of 1 record refused$/i);
    expect(cells[4]).toBe('The test server built into this app');
    expect(cells[6]).toBe(`Receipt 1: ${UNKNOWN}`);

    // A census batch the service took whole stays a plain "Sent".
    expect((await callBridge(ui, 'batches.send', { kind: 'census', records: [censusRow(1)] })).body).toMatchObject({ ok: true, result: { ok: true } });
    const census = table.getByRole('row').filter({ hasText: 'Census batch 2' });
    await census.waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await census.getByRole('cell').nth(1).innerText()).trim(), { timeout: 30_000 }).toMatch(/^Sent$/i);
    await visit(page, 'history-processed-batches');
  }, 120_000);

  it('says a file\'s refused rows in its row and, with their lines, in its drawer', async () => {
    const { world, page, errors } = signedIn;
    await page.getByText('Files', { exact: true }).click();
    // E000001 is known from the census batch above; E-ACC-1 is not.
    await writeFile(join(world.folder, FILE), csvText('receipt', [receiptRow(1), receiptRow(2, { employeeRegistration: 'E-ACC-1' })]));
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: FILE, exact: true }) });
    await row.filter({ hasText: 'Uploaded' }).filter({ hasText: '1 of 2 rows refused' }).waitFor({ timeout: 60_000 });
    await visit(page, 'history-processed-files');

    await row.getByRole('button', { name: FILE }).click();
    const drawer = page.getByRole('dialog', { name: FILE });
    await drawer.getByText('The service processed the file: it took 1 of its 2 rows and refused 1. Correct the refused row in your payroll system, then send only it again (Send records, or a file of that row alone): the whole file sent again would import the other rows a second time.').waitFor();
    const refused = drawer.getByRole('table', { name: 'Rows the service refused' });
    const lines = await refused.getByRole('row').allInnerTexts();
    expect(lines.slice(1).map((line) => line.replace(/\s+/g, ' ').trim())).toEqual([`3 Employee registration employeeRegistration ${UNKNOWN}`]);
    await visit(page, 'history-processed-file-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  }, 120_000);
});
