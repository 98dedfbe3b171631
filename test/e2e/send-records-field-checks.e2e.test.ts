/**
 * The Send records form's field checks in Chromium, against `payroll-uploader ui --local-server`: a typed SSN with a
 * space after it goes out and the service takes it; an amount typed with a comma, thousands separator or $ sign, and
 * a year typed with 2 or 6 digits, say what to write in the terms the clerk sees; the receipts grid shows the Amount
 * hint; a single date copied from a spreadsheet and pasted with Ctrl+V into a date input is read (or said not to be);
 * JSON the service would refuse is refused, named by record and field, and nothing is loaded.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, getToken } from '../helpers/local-server';
import { allAxeViolations } from './axe-kit';
import { openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';

type LocalServerState = { running: boolean; url?: string };
type ImportResult = { status: string; acceptedRecords: number; rejectedRecords: number };

/** The error shown under an input (Mantine's `<id>-error`, one of the texts in its aria-describedby). */
async function errorOf(page: Page, input: Locator): Promise<string> {
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ');
  const error = ids.find((id) => id.endsWith('-error'));
  return error ? ((await page.locator(`[id="${error}"]`).textContent()) ?? '') : '';
}

/** Every text an input is described by, as a screen reader reads it. */
async function describedBy(page: Page, input: Locator): Promise<string> {
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  return (await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()))).join(' ');
}

/** Copies `text` as a spreadsheet cell would be, then pastes it with Ctrl+V into `input`, as a clerk does. */
async function pasteWithKeys(page: Page, input: Locator, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await input.click({ position: { x: 20, y: 10 } });
  await page.keyboard.press('Control+V');
}

describe('Send records: field checks in Chromium', () => {
  let world: ScreensWorld;
  let importOf: (id: string) => Promise<ImportResult>;

  beforeAll(async () => {
    world = await startScreensWorld();
    await world.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.app.origin });
    const state = await world.bridge<LocalServerState>('localServer.state');
    const creds = await world.bridge<{ clientId: string; clientSecret: string }>('localServer.credentials');
    importOf = async (id) => {
      const token = await getToken(state.url!, { id: creds.clientId, secret: creds.clientSecret });
      return (await api(state.url!, token, 'GET', `/local/v1/imports/${id}`)).body as ImportResult;
    };
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  it('says how to write an amount, reads a pasted date, and sends a typed SSN with a space after it', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const form = page.getByRole('form', { name: 'Receipts' });
    const cell = (column: string) => form.getByRole('textbox', { name: `${column} Receipt 1` });
    const date = form.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Receipt 1' }) }).getByLabel('Payment date');
    // The grid shows what Amount takes, under its column header, and reads it with the input.
    await form.getByRole('columnheader', { name: /^Amount/ }).filter({ hasText: 'More than 0, with a point for cents: 125.50' }).waitFor();
    expect(await describedBy(page, cell('Amount'))).toContain('More than 0, with a point for cents: 125.50');

    await cell('Last name').fill('Berg');
    await cell('First name').fill('Ada');
    await cell('SSN').fill('123-45-6789 ');
    await cell('Employee registration').fill('E2E-FC-1');
    await cell('Amount').fill('1.234,56');
    // One date copied from a spreadsheet, pasted with Ctrl+V: Chromium's date input would drop it.
    await pasteWithKeys(page, date, '06/30/2026');
    await expect.poll(() => date.inputValue()).toBe('2026-06-30');
    await page.getByRole('button', { name: 'Send 1 receipt' }).click();

    const amountWords = 'Amount is not a number as written: use a point for cents, not a comma, and no thousands separator, spaces or $ sign, like 1234.56';
    await expect.poll(() => errorOf(page, cell('Amount'))).toBe(amountWords);
    expect(await cell('SSN').getAttribute('aria-invalid')).not.toBe('true');
    for (const typed of ['12,5', '$1,234.56', '1 234.50', '48,250.00']) {
      await cell('Amount').fill(typed);
      await expect.poll(() => errorOf(page, cell('Amount'))).toBe(amountWords);
    }

    // A cell it cannot read is said on the field, and the date already there stays.
    await pasteWithKeys(page, date, '15.03.2026');
    await expect.poll(() => errorOf(page, date)).toBe(
      'Payment date was not pasted: "15.03.2026" is not a date; write it as YYYY-MM-DD (2026-03-15) or with slashes (15/03/2026 or 03/15/2026)');
    expect(await date.inputValue()).toBe('2026-06-30');
    await screenshots(page, 'send-records-field-checks-receipt');
    expect(await allAxeViolations(page)).toEqual([]);

    await pasteWithKeys(page, date, '2026-03-15');
    await expect.poll(() => date.inputValue()).toBe('2026-03-15');
    await expect.poll(() => errorOf(page, date)).toBe('');
    await cell('Amount').fill('1234.56');
    await page.getByRole('button', { name: 'Send 1 receipt' }).click();
    const sent = form.getByRole('status').filter({ hasText: 'The service received 1 record.' });
    await sent.waitFor({ timeout: 30_000 });
    const importId = /Import id: ([0-9a-f-]{36})/.exec((await sent.textContent()) ?? '')?.[1];
    const result = await eventually(async () => {
      const r = await importOf(importId!);
      return r.status === 'PROCESSED' ? r : undefined;
    }, 30_000, 200);
    // The local server has no census import for E2E-FC-1, so the receipt is rejected after the 201; what counts here
    // is that the batch with the typed SSN was taken (a 201, not a 400).
    expect(result.acceptedRecords + result.rejectedRecords).toBe(1);
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('says a year typed with 2 or 6 digits is to be checked, in the terms of the date the clerk sees', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'New hires' }).click();
    const person = page.getByRole('group', { name: 'Person 1' });
    const hireDate = person.getByLabel('Hire date');
    await hireDate.click({ position: { x: 20, y: 10 } });
    await page.keyboard.type('030226');
    await expect.poll(() => hireDate.inputValue()).toBe('0026-03-02');
    await page.getByRole('button', { name: 'Send 1 person' }).click();
    await expect.poll(() => errorOf(page, hireDate)).toBe('Hire date has the year 0026: check the year, it is written with 4 digits (like 2026)');
    await page.getByRole('region', { name: 'Nothing was sent yet' })
      .filter({ hasText: 'Person 1: Hire date has the year 0026: check the year' }).waitFor();
    await screenshots(page, 'send-records-field-checks-year');

    await hireDate.click({ position: { x: 20, y: 10 } });
    await page.keyboard.type('0302202612');
    await expect.poll(() => hireDate.inputValue()).toBe('202612-03-02');
    await expect.poll(() => errorOf(page, hireDate)).toBe('Hire date has the year 202612: check the year, it is written with 4 digits (like 2026)');
    await page.getByRole('button', { name: 'Start over' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('refuses JSON the service would refuse, naming record and field, and loads nothing', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'JSON file' }).click();
    const json = page.getByRole('tabpanel', { name: 'JSON file' });
    const record = {
      lastName: 'Okoye', firstName: 'Ngozi', employeeRegistration: 'E2E-FC-2', hireDate: '01/06/2026', employeeStatus: 'on leave',
      payCycle: 'Every two weeks', grossAnnualSalary: '52000.00', periodsPerYear: '26',
    };
    await json.getByRole('textbox', { name: 'Or paste JSON here' }).fill(JSON.stringify([record], null, 2));
    await json.getByRole('button', { name: 'Put the records in the form' }).click();
    const refused = json.getByRole('alert').filter({ hasText: 'The JSON was not loaded' });
    await refused.waitFor();
    const text = (await refused.textContent()) ?? '';
    for (const line of [
      'Record 1, Hire date: "01/06/2026" is not a date written YYYY-MM-DD (year first, like 2026-03-15)',
      'Record 1, Employee status: "on leave" is not one of ACTIVE, ON_LEAVE, TERMINATED',
      'Record 1, Pay cycle: "Every two weeks" is not one of WEEKLY, BIWEEKLY, SEMIMONTHLY, MONTHLY',
      'Record 1, Pay periods per year: must be a number, written without quotes ("26" is text)',
      'Record 1, Gross annual salary: must be a number, written without quotes ("52000.00" is text)',
    ]) expect(text).toContain(line);
    expect(await page.getByRole('tab', { name: 'JSON file' }).getAttribute('aria-selected')).toBe('true');
    await screenshots(page, 'send-records-field-checks-json');
    expect(await allAxeViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(await page.getByRole('group', { name: 'Person 1' }).getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('');
    expect(world.errors).toEqual([]);
  }, 120_000);
});
