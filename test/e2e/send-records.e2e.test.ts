/**
 * End to end, as a new clerk would: `payroll-uploader ui --local-server` in Debian's Chromium, with the real local
 * server and a private gnome-keyring. A new hire is sent and accepted; bad fields show next to the field, from the
 * local check and from the service's 422; receipts pasted from a spreadsheet go out after one cell is fixed.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, getToken } from '../helpers/local-server';
import { checkZoom } from './screens-a-kit';
import { openScreen, screenshots, seriousViolations, startScreensWorld, type ScreensWorld } from './screens-b-kit';

type LocalServerState = { running: boolean; url?: string };
type ImportResult = { status: string; acceptedRecords: number; rejectedRecords: number; records: number };

/** The error text tied to an input (its aria-describedby), as a screen reader reads it. */
async function describedBy(page: Page, input: ReturnType<Page['getByLabel']>): Promise<string> {
  const ids = (await input.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(ids.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

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
    expect(await seriousViolations(page)).toEqual([]);

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
      expect(await seriousViolations(page)).toEqual([]);
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
    expect(await seriousViolations(page)).toEqual([]);

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

    await page.getByRole('alert').filter({ hasText: 'The service refused the batch' }).waitFor({ timeout: 30_000 });
    const repeated = second.getByRole('textbox', { name: 'Employee registration' });
    await expect.poll(() => repeated.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(page, repeated)).toContain('Employee registration E2E-200 is also given for Person 1; each must be different in one batch');
    expect(await first.getByRole('textbox', { name: 'Employee registration' }).getAttribute('aria-invalid')).not.toBe('true');
    await screenshots(page, 'send-records-service-refusal');
    expect(await seriousViolations(page)).toEqual([]);

    await second.getByRole('textbox', { name: 'Employee registration' }).fill('E2E-201');
    await page.getByRole('button', { name: 'Send 2 people' }).click();
    const sent = page.getByRole('status').filter({ hasText: 'The service received 2 records.' });
    await sent.waitFor({ timeout: 30_000 });

    // The next try is incomplete: its problems show, and the earlier success goes away rather than stand above them.
    await first.getByRole('textbox', { name: 'Last name' }).fill('Moreau');
    await page.getByRole('button', { name: 'Send 1 person' }).click();
    await page.getByRole('alert').filter({ hasText: 'Person 1: First name is required' }).waitFor();
    expect(await sent.count()).toBe(0);
    await screenshots(page, 'send-records-after-success-problems');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Start over' }).click();
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
    expect(await seriousViolations(page)).toEqual([]);

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
});
