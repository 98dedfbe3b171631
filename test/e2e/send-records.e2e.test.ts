/**
 * End to end, as a new clerk would: `payroll-uploader ui --local-server` in Debian's Chromium, with the real local
 * server and a private gnome-keyring. A new hire is sent and accepted; bad fields show next to the field, from the
 * local check and from the service's 422; receipts pasted from a spreadsheet go out after one cell is fixed; a paste
 * with a bad row adds the others and leaves that row to correct, and rows pasted into a cell meanwhile are turned away
 * rather than take its place; drafts survive a visit to another screen; a date
 * that does not exist is named as such; the first bad field of a failed send is not hidden under the fixed header;
 * receipts loaded as new hires are called receipts; rows the form has no room for are refused whole; the paste box
 * and the Remove buttons hand the keyboard focus on instead of dropping it; no notice speaks of a send the clerk has
 * not made; the warning of a batch that did not get through outlasts rows added and a later refusal; the marks of a
 * refused batch stay through rows added and move with their rows when another is removed; the Remove buttons are red
 * in both colour schemes. axe-core finds no violation of any impact on the screen.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, getToken } from '../helpers/local-server';
import { checkZoom } from './screens-a-kit';
import { allAxeViolations, settled } from './axe-kit';
import { SCREENSHOTS, openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';

type LocalServerState = { running: boolean; url?: string };
type ImportResult = { status: string; acceptedRecords: number; rejectedRecords: number; records: number };

/** The list of what stopped a send, above the form: a region named by its title. */
const PROBLEMS = /^(Nothing was sent yet|The service refused the batch|Some fields need fixing before sending)$/;

/** The error text tied to an input (its aria-describedby), as a screen reader reads it. */
async function describedBy(page: Page, input: ReturnType<Page['getByLabel']>): Promise<string> {
  const ids = (await input.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(ids.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

/** The error shown under an input (Mantine's `<id>-error`, one of the texts in its aria-describedby), without its hint. */
async function errorOf(page: Page, input: Locator): Promise<string> {
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ');
  const error = ids.find((id) => id.endsWith('-error'));
  return error ? ((await page.locator(`[id="${error}"]`).textContent()) ?? '') : '';
}

const isFocused = (element: Locator) => element.evaluate((el) => el === document.activeElement);

/** Rows pasted straight into a cell: the paste event a spreadsheet's rows on the clipboard give the page. */
async function pasteIntoCell(cell: Locator, text: string): Promise<void> {
  await cell.focus();
  await cell.evaluate((el, rows) => {
    const clipboardData = new DataTransfer();
    clipboardData.setData('text/plain', rows);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
  }, text);
}

/** Receipts as JSON, with registrations numbered from `from`. */
const receiptsJson = (count: number, from: number) => JSON.stringify(Array.from({ length: count }, (_, i) => ({
  lastName: 'Berg', firstName: 'Ada', ssn: '123-45-6789', employeeRegistration: `E2E-L${from + i}`, paymentDate: '2026-06-01', amount: 10,
})));

describe('Send records in Chromium', () => {
  let world: ScreensWorld;
  let importOf: (id: string) => Promise<ImportResult>;

  beforeAll(async () => {
    world = await startScreensWorld();
    const state = await world.bridge<LocalServerState>('localServer.state');
    const creds = await world.bridge<{ clientId: string; clientSecret: string }>('localServer.credentials');
    const base = state.url!;
    importOf = async (id) => {
      const token = await getToken(base, { id: creds.clientId, secret: creds.clientSecret });
      return (await api(base, token, 'GET', `/local/v1/imports/${id}`)).body as ImportResult;
    };
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  it('sends a new hire that the service accepts', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    const person = page.getByRole('group', { name: 'Person 1' });
    await person.getByRole('textbox', { name: 'Last name' }).fill('Okafor');
    await person.getByRole('textbox', { name: 'First name' }).fill('Chidi');
    await person.getByRole('textbox', { name: 'Employee registration' }).fill('E2E-100');
    await person.getByLabel('Hire date').fill('2026-03-02');
    await person.getByRole('combobox', { name: 'Employee status' }).selectOption({ label: 'Active' });
    await person.getByRole('combobox', { name: 'Pay cycle' }).selectOption({ label: 'Every two weeks' });
    await person.getByRole('textbox', { name: 'Gross annual salary' }).fill('48250.00');
    await screenshots(page, 'send-records-new-hire-filled');
    await checkZoom(page, 'send-records-new-hire-filled');
    expect(await allAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Send 1 person' }).click();
    const sent = page.getByRole('status').filter({ hasText: 'The service received 1 record.' });
    await sent.waitFor({ timeout: 30_000 });
    const importId = /Import id: ([0-9a-f-]{36})/.exec((await sent.textContent()) ?? '')?.[1];
    expect(importId).toBeDefined();
    await screenshots(page, 'send-records-sent');

    // Accepted: the local server processed the import and kept the one record.
    const result = await eventually(async () => {
      const r = await importOf(importId!);
      return r.status === 'PROCESSED' ? r : undefined;
    }, 30_000, 200);
    expect(result).toMatchObject({ acceptedRecords: 1, rejectedRecords: 0 });

    // The other ways in, as a clerk first sees them.
    for (const [tab, shot] of [['Termination', 'send-records-termination'], ['JSON file', 'send-records-json']] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel', { name: tab }).waitFor();
      await screenshots(page, shot);
      expect(await allAxeViolations(page)).toEqual([]);
    }
    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('shows a bad field next to the field: the local check and the service refusal', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    const first = page.getByRole('group', { name: 'Person 1' });
    await first.getByRole('textbox', { name: 'Last name' }).fill('Nakamura');
    await first.getByRole('textbox', { name: 'First name' }).fill('Aiko');
    await first.getByRole('textbox', { name: 'Employee registration' }).fill('E2E-200');
    await first.getByRole('combobox', { name: 'Employee status' }).selectOption({ label: 'Active' });
    await first.getByRole('textbox', { name: 'Pay periods per year' }).fill('400');
    await page.getByRole('button', { name: 'Send 1 person' }).click();

    const hireDate = first.getByLabel('Hire date');
    await expect.poll(() => hireDate.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(page, hireDate)).toContain('Hire date is required');
    expect(await describedBy(page, first.getByRole('textbox', { name: 'Pay periods per year' }))).toContain('Pay periods per year must be 1 to 366');
    await screenshots(page, 'send-records-local-problems');
    expect(await allAxeViolations(page)).toEqual([]);

    // Fixed locally; a second person with the same registration is for the service to refuse (422).
    await hireDate.fill('2026-04-01');
    await first.getByRole('textbox', { name: 'Pay periods per year' }).fill('26');
    await page.getByRole('button', { name: 'Add another person' }).click();
    const second = page.getByRole('group', { name: 'Person 2' });
    await second.getByRole('textbox', { name: 'Last name' }).fill('Silva');
    await second.getByRole('textbox', { name: 'First name' }).fill('Rui');
    await second.getByRole('textbox', { name: 'Employee registration' }).fill('E2E-200');
    await second.getByLabel('Hire date').fill('2026-04-02');
    await second.getByRole('combobox', { name: 'Employee status' }).selectOption({ label: 'Active' });
    await page.getByRole('button', { name: 'Send 2 people' }).click();

    await page.getByRole('region', { name: 'The service refused the batch' }).waitFor({ timeout: 30_000 });
    const repeated = second.getByRole('textbox', { name: 'Employee registration' });
    await expect.poll(() => repeated.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(page, repeated)).toContain('Employee registration E2E-200 is also given for Person 1; each must be different in one batch');
    expect(await first.getByRole('textbox', { name: 'Employee registration' }).getAttribute('aria-invalid')).not.toBe('true');
    await screenshots(page, 'send-records-service-refusal');
    expect(await allAxeViolations(page)).toEqual([]);

    await second.getByRole('textbox', { name: 'Employee registration' }).fill('E2E-201');
    await page.getByRole('button', { name: 'Send 2 people' }).click();
    const sent = page.getByRole('status').filter({ hasText: 'The service received 2 records.' });
    await sent.waitFor({ timeout: 30_000 });

    // The next try is incomplete: its problems show, and the earlier success goes away rather than stand above them.
    await first.getByRole('textbox', { name: 'Last name' }).fill('Moreau');
    await page.getByRole('button', { name: 'Send 1 person' }).click();
    await page.getByRole('region', { name: 'Nothing was sent yet' }).filter({ hasText: 'Person 1: First name is required' }).waitFor();
    expect(await sent.count()).toBe(0);
    await screenshots(page, 'send-records-after-success-problems');
    expect(await allAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Start over' }).click();
  }, 120_000);

  it('keeps the service refusal on the rows it names while rows are added and removed, moving with its row', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'New hires' }).click();
    const census = page.getByRole('form', { name: 'New hires' });
    const person = (n: number) => page.getByRole('group', { name: `Person ${n}` });
    const registration = (n: number) => person(n).getByRole('textbox', { name: 'Employee registration' });
    const people = [['Adler', 'E2E-600'], ['Berg', 'E2E-601'], ['Costa', 'E2E-602'], ['Dias', 'E2E-601'], ['Evans', 'E2E-602']] as const;
    for (const [i, [lastName, reg]] of people.entries()) {
      if (i > 0) await census.getByRole('button', { name: 'Add another person' }).click();
      await person(i + 1).getByRole('textbox', { name: 'Last name' }).fill(lastName);
      await person(i + 1).getByRole('textbox', { name: 'First name' }).fill('Kim');
      await registration(i + 1).fill(reg);
      await person(i + 1).getByLabel('Hire date').fill('2026-07-01');
      await person(i + 1).getByRole('combobox', { name: 'Employee status' }).selectOption({ label: 'Active' });
    }
    // The local server refuses the batch (422): Dias repeats Berg's registration, Evans repeats Costa's.
    await census.getByRole('button', { name: 'Send 5 people' }).click();
    const refusal = census.getByRole('region', { name: 'The service refused the batch' });
    await refusal.waitFor({ timeout: 30_000 });
    const repeated = (value: string, other: number) => `Employee registration ${value} is also given for Person ${other}; each must be different in one batch`;
    /**
     * Which of the first `typed` people's registrations are marked, and what each mark says (by the names of the people
     * now). A blank person added after a failed send has its own marks, from the form's check: "required".
     */
    const marked = async (typed: number) => {
      const found: Record<number, string> = {};
      for (let n = 1; n <= typed; n += 1) {
        if (await registration(n).getAttribute('aria-invalid') === 'true') found[n] = await errorOf(page, registration(n));
      }
      return found;
    };
    await expect.poll(() => marked(5)).toEqual({ 4: repeated('E2E-601', 2), 5: repeated('E2E-602', 3) });

    // A person added: the service's marks stay where they were.
    await census.getByRole('button', { name: 'Add another person' }).click();
    await person(6).waitFor();
    expect(await marked(5)).toEqual({ 4: repeated('E2E-601', 2), 5: repeated('E2E-602', 3) });

    // Adler removed: Dias and Evans move up to Persons 3 and 4 with their marks, which name the people as they are now.
    await census.getByRole('button', { name: 'Remove this person (person 1)' }).click();
    await expect.poll(() => person(1).getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('Berg');
    expect(await marked(4)).toEqual({ 3: repeated('E2E-601', 1), 4: repeated('E2E-602', 2) });
    expect(await refusal.textContent()).toContain(`Person 3: ${repeated('E2E-601', 1)}`);
    expect(await refusal.textContent()).toContain(`Person 4: ${repeated('E2E-602', 2)}`);
    await screenshots(page, 'send-records-refusal-kept-after-remove');
    expect(await allAxeViolations(page)).toEqual([]);

    // Berg removed: Dias no longer repeats anyone, and its mark goes with Berg; Evans's stays, naming Costa.
    await census.getByRole('button', { name: 'Remove this person (person 1)' }).click();
    await expect.poll(() => person(1).getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('Costa');
    expect(await marked(3)).toEqual({ 3: repeated('E2E-602', 1) });

    // Edited, the field's mark goes; then the batch (the blank person left out) is received.
    await registration(3).fill('E2E-603');
    await expect.poll(() => marked(3)).toEqual({});
    await census.getByRole('button', { name: 'Send 4 people' }).click();
    await census.getByRole('status').filter({ hasText: 'The service received 3 records.' }).waitFor({ timeout: 30_000 });
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('keeps a repeated receipt marked on its row while rows are added and removed', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const form = page.getByRole('form', { name: 'Receipts' });
    const cell = (field: string, n: number) => form.getByRole('textbox', { name: `${field} Receipt ${n}` });
    const receipts = [['Adler', 'E2E-610'], ['Berg', 'E2E-611'], ['Adler', 'E2E-610']] as const;
    for (const [i, [lastName, reg]] of receipts.entries()) {
      if (i > 0) await form.getByRole('button', { name: 'Add a row' }).click();
      await cell('Last name', i + 1).fill(lastName);
      await cell('First name', i + 1).fill('Kim');
      await cell('SSN', i + 1).fill('123-45-6789');
      await cell('Employee registration', i + 1).fill(reg);
      await form.getByRole('row').filter({ has: page.getByRole('rowheader', { name: `Receipt ${i + 1}` }) }).getByLabel('Payment date').fill('2026-07-01');
      await cell('Amount', i + 1).fill('10.00');
    }
    await form.getByRole('button', { name: 'Send 3 receipts' }).click();
    const refusal = form.getByRole('region', { name: 'The service refused the batch' });
    await refusal.waitFor({ timeout: 30_000 });
    const same = (other: number) => `is the same receipt as Receipt ${other} (same employee registration, payment date and amount)`;
    const rowWith = (text: string) => form.getByRole('row').filter({ hasText: text });
    await rowWith(same(1)).waitFor();

    // A row added, then Berg's removed: the mark stays under the repeated receipt, now Receipt 2, naming Receipt 1.
    await form.getByRole('button', { name: 'Add a row' }).click();
    await cell('Last name', 4).waitFor();
    expect(await rowWith(same(1)).count()).toBe(1);
    await form.getByRole('button', { name: 'Remove receipt 2' }).click();
    await expect.poll(() => cell('Last name', 2).inputValue()).toBe('Adler');
    expect(await rowWith(same(1)).count()).toBe(1);
    expect(await refusal.textContent()).toContain(`Receipt 2: ${same(1)}`);
    // The row of the mark comes right under Receipt 2's inputs.
    const marksRow = await form.getByRole('row').evaluateAll((rows, text) => rows.findIndex((r) => r.textContent?.includes(text)), same(1));
    expect(await form.getByRole('row').nth(marksRow - 1).getByRole('rowheader').textContent()).toContain('2');
    await form.getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('draws the Remove buttons in red in the light and in the dark scheme', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'New hires' }).click();
    await page.getByRole('button', { name: 'Add another person' }).click();
    await page.getByRole('tab', { name: 'Receipts' }).click();
    await page.getByRole('form', { name: 'Receipts' }).getByRole('button', { name: 'Add a row' }).click();
    const buttons = {
      census: page.getByRole('button', { name: 'Remove this person (person 1)' }),
      receipts: page.getByRole('button', { name: 'Remove receipt 1' }),
    };
    /** How much redder than green or blue the button's text is: a red, not a white or grey with a tint of red. */
    const redness = async (button: Locator) => {
      const [r, g, b] = (await button.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)!.map(Number) as [number, number, number];
      return r - Math.max(g, b);
    };
    const found: Record<string, number> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [tab, button] of [['Receipts', buttons.receipts], ['New hires', buttons.census]] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await settled(page);
        found[`${tab}, ${scheme}`] = await redness(button);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(SCREENSHOTS, `send-records-remove-${tab === 'Receipts' ? 'receipt' : 'person'}-${scheme}.png`), fullPage: true });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(Object.entries(found).filter(([, redder]) => redder < 80)).toEqual([]);
    // And readable in both (axe-kit measures each scheme's contrast).
    expect(await allAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('tab', { name: 'Receipts' }).click();
    await page.getByRole('form', { name: 'Receipts' }).getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('takes receipts pasted from a spreadsheet, with the bad cell marked in its row', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const form = page.getByRole('form', { name: 'Receipts' });
    await form.getByRole('button', { name: 'Paste from a spreadsheet' }).click();
    const rows = [
      ['Last name', 'First name', 'SSN', 'Employee registration', 'Payment date', 'Amount'],
      ['Okafor', 'Chidi', '123-45-6789', 'E2E-100', '2026-04-30', '212.40'],
      ['Nakamura', 'Aiko', '987654321', 'E2E-200', '04/30/2026', '180'],
    ];
    await form.getByRole('textbox', { name: 'Rows copied from a spreadsheet' }).fill(rows.map((r) => r.join('\t')).join('\n'));
    await form.getByRole('button', { name: 'Add these rows' }).click();
    await form.getByRole('status').filter({ hasText: '2 rows added' }).waitFor();

    expect(await form.getByRole('textbox', { name: 'Last name Receipt 2' }).inputValue()).toBe('Nakamura');
    const row2 = form.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Receipt 2' }) });
    expect(await row2.getByLabel('Payment date').inputValue()).toBe('2026-04-30');
    const ssn = form.getByRole('textbox', { name: 'SSN Receipt 2' });
    await expect.poll(() => ssn.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(page, ssn)).toContain('SSN must be written 123-45-6789');
    expect(await form.getByRole('textbox', { name: 'SSN Receipt 1' }).getAttribute('aria-invalid')).not.toBe('true');
    await screenshots(page, 'send-records-receipts-pasted');
    await checkZoom(page, 'send-records-receipts-pasted');
    expect(await allAxeViolations(page)).toEqual([]);

    await ssn.fill('987-65-4321');
    await form.getByRole('button', { name: 'Send 2 receipts' }).click();
    const sent = form.getByRole('status').filter({ hasText: 'The service received 2 records.' });
    await sent.waitFor({ timeout: 30_000 });
    const importId = /Import id: ([0-9a-f-]{36})/.exec((await sent.textContent()) ?? '')?.[1];
    const result = await eventually(async () => {
      const r = await importOf(importId!);
      return r.status === 'PROCESSED' ? r : undefined;
    }, 30_000, 200);
    expect(result).toMatchObject({ acceptedRecords: 2, rejectedRecords: 0 });
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('takes the good rows of a paste and leaves the bad one in the box, named by its row', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const form = page.getByRole('form', { name: 'Receipts' });
    await form.getByRole('button', { name: 'Paste from a spreadsheet' }).click();
    const box = form.getByRole('textbox', { name: 'Rows copied from a spreadsheet' });
    const header = ['Last name', 'First name', 'SSN', 'Employee registration', 'Payment date', 'Amount'].join('\t');
    const bad = ['Nakamura', 'Aiko', '987-65-4321', 'E2E-200', '2026-02-30', '180'].join('\t');
    await box.fill([header, ['Okafor', 'Chidi', '123-45-6789', 'E2E-100', '2026-04-30', '212.40'].join('\t'), bad,
      ['Silva', 'Rui', '111-22-3333', 'E2E-201', '05/04/2026', '75.10'].join('\t')].join('\n'));
    await form.getByRole('button', { name: 'Add these rows' }).click();

    await form.getByRole('status').filter({ hasText: '2 rows added' }).waitFor();
    const alert = form.getByRole('alert').filter({ hasText: 'These rows were not added' });
    expect(await alert.textContent()).toContain('Row 3, Payment date: "2026-02-30" is not a real date: February 2026 has 28 days');
    expect(await box.inputValue()).toBe(`${header}\n${bad}`);
    expect(await form.getByRole('textbox', { name: 'Last name Receipt 1' }).inputValue()).toBe('Okafor');
    expect(await form.getByRole('textbox', { name: 'Last name Receipt 2' }).inputValue()).toBe('Silva');
    await screenshots(page, 'send-records-paste-bad-row');
    expect(await allAxeViolations(page)).toEqual([]);

    // More rows pasted straight into a cell while that row waits in the box: turned away whole, the box kept as it
    // was and given the focus, with the reason under it.
    await pasteIntoCell(form.getByRole('textbox', { name: 'Last name Receipt 1' }),
      [['Berg', 'Ada', '222-33-4444', 'E2E-202', '2026-04-30', '50'].join('\t'), ['Moreau', 'Lea', '333-44-5555', 'E2E-203', '2026-04-30', '60'].join('\t')].join('\n'));
    const turnedAway = form.getByRole('alert').filter({ hasText: 'The rows you pasted were not added' });
    await turnedAway.waitFor();
    await expect.poll(() => isFocused(box)).toBe(true);
    expect(await box.inputValue()).toBe(`${header}\n${bad}`);
    expect(await form.getByRole('textbox', { name: 'Last name Receipt 1' }).inputValue()).toBe('Okafor');
    expect(await form.getByRole('textbox', { name: 'Last name Receipt 3' }).count()).toBe(0);
    expect(await form.getByRole('status').filter({ hasText: 'rows added' }).count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'send-records-paste-box-holds-rows-in-view-light.png') });
    await screenshots(page, 'send-records-paste-box-holds-rows');
    expect(await allAxeViolations(page)).toEqual([]);

    await box.fill(`${header}\n${bad.replace('2026-02-30', '2026-02-27')}`);
    await form.getByRole('button', { name: 'Add these rows' }).click();
    await form.getByRole('status').filter({ hasText: '1 row added' }).waitFor();
    expect(await form.getByRole('textbox', { name: 'Last name Receipt 3' }).inputValue()).toBe('Nakamura');
    expect(await alert.count()).toBe(0);
    expect(await turnedAway.count()).toBe(0);
    await form.getByRole('button', { name: 'Start over' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('keeps the drafts when the clerk goes to another screen and back, and names a date that does not exist', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'New hires' }).click();
    const person = page.getByRole('group', { name: 'Person 1' });
    await person.getByRole('textbox', { name: 'Last name' }).fill('Haddad');
    await person.getByRole('textbox', { name: 'First name' }).fill('Lina');
    await person.getByRole('textbox', { name: 'Employee registration' }).fill('E2E-300');
    await person.getByRole('combobox', { name: 'Employee status' }).selectOption({ label: 'Active' });
    // 30 February, typed into the date input as a clerk would (this Chromium reads dates month first).
    const hireDate = person.getByLabel('Hire date');
    await hireDate.pressSequentially('02302026');
    await page.getByRole('button', { name: 'Send 1 person' }).click();
    await expect.poll(() => hireDate.getAttribute('aria-invalid')).toBe('true');
    const notReal = 'Hire date is not a real date: there is no such day in that month, or part of the date is missing.';
    expect(await describedBy(page, hireDate)).toContain(notReal);
    expect(await describedBy(page, hireDate)).not.toContain('required');
    await page.getByRole('region', { name: PROBLEMS }).filter({ hasText: `Person 1: ${notReal}` }).waitFor();
    expect(await hireDate.evaluate((el) => el === document.activeElement)).toBe(true);
    await screenshots(page, 'send-records-no-such-date');

    await page.getByRole('tab', { name: 'Receipts' }).click();
    const receipts = page.getByRole('form', { name: 'Receipts' });
    await receipts.getByRole('textbox', { name: 'Last name Receipt 1' }).fill('Keller');

    await openScreen(page, 'Queue');
    await openScreen(page, 'Send records');
    expect(await page.getByRole('tab', { name: 'Receipts' }).getAttribute('aria-selected')).toBe('true');
    expect(await receipts.getByRole('textbox', { name: 'Last name Receipt 1' }).inputValue()).toBe('Keller');
    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(await person.getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('Haddad');
    expect(await person.getByRole('textbox', { name: 'Employee registration' }).inputValue()).toBe('E2E-300');
    expect(await person.getByRole('combobox', { name: 'Employee status' }).inputValue()).toBe('ACTIVE');
    // The browser cannot give back a date that does not exist: the field says it was emptied rather than stay silent.
    expect(await hireDate.inputValue()).toBe('');
    expect(await describedBy(page, hireDate)).toContain('Hire date was emptied: what was typed was not a real date');
    await screenshots(page, 'send-records-kept-after-leaving');
    expect(await allAxeViolations(page)).toEqual([]);

    await hireDate.fill('2026-03-02');
    await page.getByRole('button', { name: 'Send 1 person' }).click();
    await page.getByRole('status').filter({ hasText: 'The service received 1 record.' }).waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'Receipts' }).click();
    await receipts.getByRole('button', { name: 'Start over' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('brings the first bad field of a failed send into view below the fixed header, with its label', async () => {
    const { page } = world;
    // A laptop's short window: the form is long enough to scroll any field to the top.
    await page.setViewportSize({ width: 1280, height: 600 });
    try {
      await openScreen(page, 'Send records');
      await page.getByRole('tab', { name: 'New hires' }).click();
      await page.getByRole('button', { name: 'Add another person' }).click();
      for (const [n, registration] of [[1, 'E2E-400'], [2, 'E2E-401']] as const) {
        const person = page.getByRole('group', { name: `Person ${n}` });
        if (n === 1) await person.getByRole('textbox', { name: 'Last name' }).fill('Berg');
        await person.getByRole('textbox', { name: 'First name' }).fill('Ada');
        await person.getByRole('textbox', { name: 'Employee registration' }).fill(registration);
        await person.getByLabel('Hire date').fill('2026-05-04');
        await person.getByRole('combobox', { name: 'Employee status' }).selectOption({ label: 'Active' });
      }
      // Person 2's Last name is missing, and the clerk tries again and again with Enter in a field further down: by the
      // second try the list of problems already stands above the form, so nothing moves the page when the field is
      // focused. They have scrolled so that the field sits just under the header.
      const second = page.getByRole('group', { name: 'Person 2' });
      const lastName = second.getByRole('textbox', { name: 'Last name' });
      const salary = second.getByRole('textbox', { name: 'Gross annual salary' });
      const tryAgain = async () => {
        await salary.evaluate((el: HTMLElement) => el.focus({ preventScroll: true }));
        await page.keyboard.press('Enter');
        await expect.poll(() => lastName.getAttribute('aria-invalid')).toBe('true');
        await expect.poll(() => lastName.evaluate((el) => el === document.activeElement)).toBe(true);
      };
      await tryAgain();
      await page.getByRole('region', { name: PROBLEMS }).filter({ hasText: 'Person 2: Last name is required' }).waitFor();
      await lastName.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 20));
      expect(await lastName.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(30);
      await tryAgain();
      const place = await lastName.evaluate((el) => ({
        header: document.querySelector('header')!.getBoundingClientRect().bottom,
        label: document.querySelector(`label[for="${el.id}"]`)!.getBoundingClientRect().top,
        field: el.getBoundingClientRect().top,
      }));
      expect(place.label).toBeGreaterThanOrEqual(place.header);
      expect(place.field).toBeGreaterThan(place.label);
      await page.getByRole('button', { name: 'Start over' }).click();
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('adds records loaded from JSON after a person already typed, and says so', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'New hires' }).click();
    const person = (n: number) => page.getByRole('group', { name: `Person ${n}` });
    await person(1).getByRole('textbox', { name: 'Last name' }).fill('Keepme');
    await person(1).getByRole('textbox', { name: 'Employee registration' }).fill('E-7777');

    await page.getByRole('tab', { name: 'JSON file' }).click();
    const json = page.getByRole('tabpanel', { name: 'JSON file' });
    const records = [
      { lastName: 'Okoye', firstName: 'Ngozi', employeeRegistration: 'E2E-500', hireDate: '2026-06-01', employeeStatus: 'ACTIVE' },
      { lastName: 'Lindqvist', firstName: 'Sven', employeeRegistration: 'E2E-501', hireDate: '2026-06-02', employeeStatus: 'ON_LEAVE' },
    ];
    await json.getByRole('textbox', { name: 'Or paste JSON here' }).fill(JSON.stringify(records, null, 2));
    await json.getByRole('button', { name: 'Put the records in the form' }).click();

    // Back on New hires: the typed person first, untouched, then the two loaded ones; the message says so.
    await expect.poll(() => page.getByRole('tab', { name: 'New hires' }).getAttribute('aria-selected')).toBe('true');
    expect(await person(1).getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('Keepme');
    expect(await person(1).getByRole('textbox', { name: 'Employee registration' }).inputValue()).toBe('E-7777');
    expect(await person(2).getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('Okoye');
    expect(await person(2).getByRole('textbox', { name: 'Employee registration' }).inputValue()).toBe('E2E-500');
    expect(await person(3).getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('Lindqvist');
    expect(await person(3).getByRole('combobox', { name: 'Employee status' }).inputValue()).toBe('ON_LEAVE');
    expect(await page.getByRole('group', { name: 'Person 4' }).count()).toBe(0);
    await page.getByRole('status').filter({ hasText: '2 records from the JSON were added to the new hires form, after the 1 already in it.' }).waitFor();
    await page.getByRole('button', { name: 'Send 3 people' }).waitFor();
    await screenshots(page, 'send-records-json-added-after-typed');
    expect(await allAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('tab', { name: 'JSON file' }).click();
    await json.getByRole('textbox', { name: 'Or paste JSON here' }).fill('');
    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('says that receipts loaded as new hires look like receipts, and which choice sends them', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'JSON file' }).click();
    const json = page.getByRole('tabpanel', { name: 'JSON file' });
    const receipts = [
      { lastName: 'Okafor', firstName: 'Chidi', ssn: '123-45-6789', employeeRegistration: 'E2E-600', paymentDate: '2026-05-29', amount: 212.4 },
      { lastName: 'Nakamura', firstName: 'Aiko', ssn: '987-65-4321', employeeRegistration: 'E2E-601', paymentDate: '2026-05-29', amount: 180 },
    ];
    await json.getByRole('radio', { name: 'New hires and changes (census)' }).check();
    await json.getByRole('textbox', { name: 'Or paste JSON here' }).fill(JSON.stringify(receipts, null, 2));
    await json.getByRole('button', { name: 'Put the records in the form' }).click();

    const alert = json.getByRole('alert').filter({ hasText: 'The JSON was not loaded' });
    await alert.waitFor();
    const said = await alert.textContent();
    expect(said).toContain('These look like receipt records, not new hires: they have SSN, Payment date, Amount. '
      + 'Choose "Receipts" under "The records are", then put them in the form again.');
    expect(said).not.toContain('unknown field');
    await screenshots(page, 'send-records-json-wrong-kind');
    expect(await allAxeViolations(page)).toEqual([]);

    // The advice followed: the message goes with the choice it was about, and the receipts go into the grid.
    await json.getByRole('radio', { name: 'Receipts' }).check();
    expect(await alert.count()).toBe(0);
    await json.getByRole('button', { name: 'Put the records in the form' }).click();
    const form = page.getByRole('form', { name: 'Receipts' });
    await page.getByRole('status').filter({ hasText: '2 records were put in the receipts grid from the JSON.' }).waitFor();
    expect(await form.getByRole('textbox', { name: 'Last name Receipt 2' }).inputValue()).toBe('Nakamura');
    expect(await form.getByRole('textbox', { name: 'Amount Receipt 1' }).inputValue()).toBe('212.4');
    // The button pressed is on a tab now hidden: the focus goes to the first loaded record, not to the page.
    await expect.poll(() => isFocused(form.getByRole('textbox', { name: 'Last name Receipt 1' }))).toBe(true);

    await form.getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('tab', { name: 'JSON file' }).click();
    await json.getByRole('textbox', { name: 'Or paste JSON here' }).fill('');
    await json.getByRole('radio', { name: 'New hires and changes (census)' }).check();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('refuses JSON records and pasted rows the form has no room for, adding none of them', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'JSON file' }).click();
    const json = page.getByRole('tabpanel', { name: 'JSON file' });
    await json.getByRole('radio', { name: 'Receipts' }).check();
    const text = json.getByRole('textbox', { name: 'Or paste JSON here' });
    const form = page.getByRole('form', { name: 'Receipts' });
    const rowsInForm = form.getByRole('rowheader');
    await text.fill(receiptsJson(300, 1000));
    await json.getByRole('button', { name: 'Put the records in the form' }).click();
    await page.getByRole('button', { name: 'Send 300 receipts' }).waitFor({ timeout: 30_000 });

    // 201 more than the 500 one form takes: none of them goes in, the clerk is told why, and the JSON is still there.
    await page.getByRole('tab', { name: 'JSON file' }).click();
    await text.fill(receiptsJson(201, 2000));
    await json.getByRole('button', { name: 'Put the records in the form' }).click();
    const alert = json.getByRole('alert').filter({ hasText: 'The JSON was not loaded' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The form already holds 300 records; 201 more would make 501, and one form takes at most 500. '
      + 'Send the records in the form first (or press Start over), then add these; or send large batches as a CSV file through the watched folder.');
    expect(await page.getByRole('tab', { name: 'JSON file' }).getAttribute('aria-selected')).toBe('true');
    expect(JSON.parse(await text.inputValue())).toHaveLength(201);
    await screenshots(page, 'send-records-json-no-room');
    expect(await allAxeViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Receipts' }).click();
    expect(await rowsInForm.count()).toBe(300);

    // A paste of the same size: refused whole, every row still in the box.
    await form.getByRole('button', { name: 'Paste from a spreadsheet' }).click();
    const box = form.getByRole('textbox', { name: 'Rows copied from a spreadsheet' });
    const rows = Array.from({ length: 201 }, (_, i) => ['Berg', 'Ada', '123-45-6789', `E2E-P${i}`, '2026-06-01', '10.00'].join('\t')).join('\n');
    await box.fill(rows);
    await form.getByRole('button', { name: 'Add these rows' }).click();
    const refused = form.getByRole('alert').filter({ hasText: 'These rows were not added' });
    await refused.waitFor();
    expect(await refused.textContent()).toContain('The form already holds 300 records; 201 more would make 501, and one form takes at most 500.');
    expect(await refused.textContent()).toContain('They are all still in the box "Rows copied from a spreadsheet", so nothing is lost.');
    expect(await box.inputValue()).toBe(rows);
    expect(await rowsInForm.count()).toBe(300);
    await refused.screenshot({ path: join(SCREENSHOTS, 'send-records-paste-no-room-light.png') });

    // Up to the limit is fine; then Add a row says the form is full instead of adding a 501st. (Cancel keeps what the
    // box holds for the next time it opens: emptied first, for the flows after this one.)
    await box.fill('');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('tab', { name: 'JSON file' }).click();
    await text.fill(receiptsJson(200, 3000));
    await json.getByRole('button', { name: 'Put the records in the form' }).click();
    await page.getByRole('button', { name: 'Send 500 receipts' }).waitFor({ timeout: 30_000 });
    await form.getByRole('button', { name: 'Add a row' }).click();
    const full = form.getByRole('status').filter({ hasText: 'The form holds 500 records, the most it takes: send them first, then add more.' });
    await full.waitFor();
    expect(await rowsInForm.count()).toBe(500);
    await full.locator('..').screenshot({ path: join(SCREENSHOTS, 'send-records-form-full-light.png') });

    await form.getByRole('button', { name: 'Start over' }).click();
    expect(await rowsInForm.count()).toBe(1);
    expect(await full.count()).toBe(0);
    await page.getByRole('tab', { name: 'JSON file' }).click();
    await text.fill('');
    await json.getByRole('radio', { name: 'New hires and changes (census)' }).check();
    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(world.errors).toEqual([]);
  }, 180_000);

  it('keeps the keyboard focus when the paste box opens and closes: in the box, back on its button, on the first added row', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const form = page.getByRole('form', { name: 'Receipts' });
    await form.getByRole('textbox', { name: 'Last name Receipt 1' }).fill('Keller');
    const open = form.getByRole('button', { name: 'Paste from a spreadsheet' });
    const box = form.getByRole('textbox', { name: 'Rows copied from a spreadsheet' });

    await open.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(box)).toBe(true);
    // Cancel, reached with Tab: the focus goes back to the button that opened the box.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await isFocused(form.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(open)).toBe(true);

    // Opened again, rows typed in, added: the focus is on the first added row (after the row already typed).
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(box)).toBe(true);
    await page.keyboard.insertText([
      ['Okafor', 'Chidi', '123-45-6789', 'E2E-800', '2026-04-30', '212.40'].join('\t'),
      ['Silva', 'Rui', '111-22-3333', 'E2E-801', '2026-04-30', '75.10'].join('\t'),
    ].join('\n'));
    await page.keyboard.press('Tab');
    expect(await isFocused(form.getByRole('button', { name: 'Add these rows' }))).toBe(true);
    await page.keyboard.press('Enter');
    await form.getByRole('status').filter({ hasText: '2 rows added' }).waitFor();
    const firstAdded = form.getByRole('textbox', { name: 'Last name Receipt 2' });
    await expect.poll(() => isFocused(firstAdded)).toBe(true);
    expect(await firstAdded.inputValue()).toBe('Okafor');
    // And Tab goes on from there, not from the top of the page.
    await page.keyboard.press('Tab');
    expect(await isFocused(form.getByRole('textbox', { name: 'First name Receipt 2' }))).toBe(true);
    await screenshots(page, 'send-records-paste-focus-first-added');
    expect(await allAxeViolations(page)).toEqual([]);

    await form.getByRole('button', { name: 'Start over' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('speaks of a send only once the clerk has sent, and the notes about added rows go with those rows', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'JSON file' }).click();
    const json = page.getByRole('tabpanel', { name: 'JSON file' });
    await json.getByRole('textbox', { name: 'Or paste JSON here' }).fill(JSON.stringify([{ lastName: 'Haddad', employeeRegistration: 'E2E-700' }]));
    await json.getByRole('button', { name: 'Put the records in the form' }).click();

    // Loaded, checked, not sent: the list says what to fix, and nothing about a send that never was.
    const problems = page.getByRole('region', { name: PROBLEMS }).filter({ hasText: 'Person 1: First name is required' });
    await problems.waitFor();
    const before = await problems.textContent();
    expect(before).toContain('Some fields need fixing before sending');
    expect(before).toContain('Fix the fields marked in red, then send.');
    expect(before).not.toMatch(/sent yet|send again/);
    const loaded = page.getByRole('status').filter({ hasText: '1 record was put in the new hires form from the JSON. Check it, then send.' });
    await loaded.waitFor();
    await screenshots(page, 'send-records-json-loaded-to-check');
    expect(await allAxeViolations(page)).toEqual([]);

    // Sent and stopped by the check: now nothing was sent, and the note about the loaded record has had its say.
    await page.getByRole('button', { name: 'Send 1 person' }).click();
    await expect.poll(() => problems.textContent()).toContain('Nothing was sent yet');
    expect(await problems.textContent()).toContain('Fix the fields marked in red, then send again.');
    expect(await loaded.count()).toBe(0);

    // Start over takes the draft, and every note about it, away.
    await page.getByRole('button', { name: 'Start over' }).click();
    expect(await problems.count()).toBe(0);
    await page.getByRole('tab', { name: 'JSON file' }).click();
    await json.getByRole('button', { name: 'Put the records in the form' }).click();
    await loaded.waitFor();
    await page.getByRole('button', { name: 'Start over' }).click();
    expect(await loaded.count()).toBe(0);

    // The same for rows added by a paste: "1 row added. Check it, then send." goes when the row does.
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const form = page.getByRole('form', { name: 'Receipts' });
    await form.getByRole('button', { name: 'Paste from a spreadsheet' }).click();
    await form.getByRole('textbox', { name: 'Rows copied from a spreadsheet' })
      .fill(['Okafor', 'Chidi', '123-45-6789', 'E2E-100', '2026-04-30', '212.40'].join('\t'));
    await form.getByRole('button', { name: 'Add these rows' }).click();
    const added = form.getByRole('status').filter({ hasText: '1 row added. Check it, then send.' });
    await added.waitFor();
    await form.getByRole('button', { name: 'Start over' }).click();
    expect(await added.count()).toBe(0);
    await screenshots(page, 'send-records-started-over');

    await page.getByRole('tab', { name: 'JSON file' }).click();
    await json.getByRole('textbox', { name: 'Or paste JSON here' }).fill('');
    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('hands the keyboard focus on when a row is removed: to the Remove button of the row in its place, or Add when one row is left', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    const census = page.getByRole('form', { name: 'New hires' });
    const lastName = (n: number) => page.getByRole('group', { name: `Person ${n}` }).getByRole('textbox', { name: 'Last name' });
    // Add another person puts the focus in the new card (react-hook-form's append), so the clerk types there next.
    await census.getByRole('button', { name: 'Add another person' }).click();
    await census.getByRole('button', { name: 'Add another person' }).click();
    for (const [n, name] of [[1, 'Adler'], [2, 'Berg'], [3, 'Costa']] as const) await lastName(n).fill(name);

    // The last person removed: the focus goes to the Remove button of the one before, not to the page.
    await census.getByRole('button', { name: 'Remove this person (person 3)' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(census.getByRole('button', { name: 'Remove this person (person 2)' }))).toBe(true);
    expect(await page.getByRole('group', { name: 'Person 3' }).count()).toBe(0);
    expect(await lastName(2).inputValue()).toBe('Berg');
    await screenshots(page, 'send-records-census-removed-last');
    await census.getByRole('button', { name: 'Start over' }).click();

    // In the grid: the next row moves up, and its Remove button has the focus; with one row left, Add a row has it.
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const grid = page.getByRole('form', { name: 'Receipts' });
    const cell = (n: number) => grid.getByRole('textbox', { name: `Last name Receipt ${n}` });
    await grid.getByRole('button', { name: 'Add a row' }).click();
    await grid.getByRole('button', { name: 'Add a row' }).click();
    for (const [n, name] of [[1, 'Adler'], [2, 'Berg'], [3, 'Costa']] as const) await cell(n).fill(name);
    await grid.getByRole('button', { name: 'Remove receipt 1' }).focus();
    await page.keyboard.press('Enter');
    const nowFirst = grid.getByRole('button', { name: 'Remove receipt 1' });
    await expect.poll(() => isFocused(nowFirst)).toBe(true);
    expect([await cell(1).inputValue(), await cell(2).inputValue()]).toEqual(['Berg', 'Costa']);
    await screenshots(page, 'send-records-receipt-removed');
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(grid.getByRole('button', { name: 'Add a row' }))).toBe(true);
    expect(await cell(1).inputValue()).toBe('Costa');
    expect(await grid.getByRole('button', { name: /^Remove receipt/ }).count()).toBe(0);
    await screenshots(page, 'send-records-receipt-removed-to-one');
    // And the keyboard goes on from there: Enter adds a row, and the focus goes into it.
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(cell(2))).toBe(true);

    await grid.getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('keeps the warning of a batch that did not get through while rows are added and a later send is refused, until one is received', async () => {
    const { page } = world;
    // The service answers every receipt batch with a 500: it may have imported it all the same, so the app does not retry.
    await world.bridge('localServer.faults.set', { rules: [{ pathPrefix: '/law/api/v1/receipt', errorRate: 1, errorStatus: 500 }] });
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const form = page.getByRole('form', { name: 'Receipts' });
    const pasteRow = async (cells: string[]) => {
      await form.getByRole('button', { name: 'Paste from a spreadsheet' }).click();
      await form.getByRole('textbox', { name: 'Rows copied from a spreadsheet' }).fill(cells.join('\t'));
      await form.getByRole('button', { name: 'Add these rows' }).click();
    };
    const receipt = ['Okafor', 'Chidi', '123-45-6789', 'E2E-900', '2026-04-30', '212.40'];
    await pasteRow(receipt);
    await form.getByRole('button', { name: 'Send 1 receipt' }).click();
    const advice = 'look at its imports, or ask your service provider, before sending them again';
    const warning = form.getByRole('alert').filter({ hasText: advice });
    await warning.waitFor({ timeout: 30_000 });
    expect(await warning.textContent()).toContain('This batch may have reached the service');

    // One more row pasted (the same receipt again, by mistake): the first batch may still be on the service, so the
    // warning stays above both rows.
    await pasteRow(receipt);
    await form.getByRole('status').filter({ hasText: '1 row added' }).waitFor();
    expect(await form.getByRole('textbox', { name: 'Last name Receipt 2' }).inputValue()).toBe('Okafor');
    expect(await warning.count()).toBe(1);
    await screenshots(page, 'send-records-failed-kept-after-paste');

    // Sent again with the service back: refused for the repeated receipt (422), which says nothing of the first batch.
    await world.bridge('localServer.faults.set', { rules: [] });
    await form.getByRole('button', { name: 'Send 2 receipts' }).click();
    await form.getByRole('region', { name: 'The service refused the batch' }).waitFor({ timeout: 30_000 });
    expect(await warning.textContent()).toContain('An earlier batch may have reached the service');
    await screenshots(page, 'send-records-failed-kept-above-refusal');
    expect(await allAxeViolations(page)).toEqual([]);

    // Received: the form empties, and the warning about sending its records again goes with them.
    await form.getByRole('textbox', { name: 'Employee registration Receipt 2' }).fill('E2E-901');
    await form.getByRole('button', { name: 'Send 2 receipts' }).click();
    await form.getByRole('status').filter({ hasText: 'The service received 2 records.' }).waitFor({ timeout: 30_000 });
    expect(await warning.count()).toBe(0);
    await page.getByRole('tab', { name: 'New hires' }).click();
    expect(world.errors).toEqual([]);
  }, 120_000);
});
