/**
 * Send records in Chromium against browser mode with its embedded local server and a real keychain: a clerk whose
 * browser writes dates day first (en-GB) pastes rows dated 05/03/2026 and 31/03/2026, and both are read day first,
 * the first with a note under it that says it was read as 5 March 2026; a single date pasted into a date input is
 * read in the browser's order, and said so. And a Send while the built-in server is stopped says the batch was not
 * sent (nothing went out), not that it may have reached the service, and History has no batch of it.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/ui-app';
import { openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';

/** Every text an input is described by, as a screen reader reads it. */
async function describedBy(page: Page, input: Locator): Promise<string> {
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  return (await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()))).join(' ');
}

describe('Send records: dates pasted day first, and a send while the built-in server is stopped (browser mode)', () => {
  let world: ScreensWorld;
  let british: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    world = await startScreensWorld();
    british = await world.browser.newContext({ locale: 'en-GB' });
    await british.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.app.origin });
    page = await british.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, world.app);
  }, 180_000);
  afterAll(async () => {
    await british?.close();
    await world?.close();
  });

  it('reads a pasted column day first when one of its dates shows it, and says how it read the date that reads two ways', async () => {
    await openScreen(page, 'Send records');
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const form = page.getByRole('form', { name: 'Receipts' });
    await form.getByRole('button', { name: 'Paste from a spreadsheet' }).click();
    await form.getByLabel('Rows copied from a spreadsheet').fill(
      'Smith\tAnna\t123-45-6789\tE-1\t05/03/2026\t10\nLee\tBo\t987-65-4321\tE-2\t31/03/2026\t20',
    );
    await form.getByRole('button', { name: 'Add these rows' }).click();
    await form.getByRole('status').filter({ hasText: '2 rows added' }).waitFor();

    const date = (row: number) => form.getByRole('row').filter({ has: page.getByRole('rowheader', { name: `Receipt ${row}` }) }).getByLabel('Payment date');
    expect([await date(1).inputValue(), await date(2).inputValue()]).toEqual(['2026-03-05', '2026-03-31']);
    const note = '"05/03/2026" was read as 5 March 2026 (day first, as 31/03/2026 in the same column shows). If it is 3 May 2026, correct the date.';
    await form.getByText(note).waitFor();
    expect(await describedBy(page, date(1))).toContain(note);
    expect(await describedBy(page, date(2))).not.toContain('was read as');
    // Nothing refused: the month 31 the old reading saw is not there.
    expect(await form.getByRole('alert').count()).toBe(0);
    await screenshots(page, 'send-records-dates-read-day-first');

    // One date pasted into a date input, with nothing else to go by: read as this browser writes dates.
    await page.evaluate((value) => navigator.clipboard.writeText(value), '04/02/2026');
    await date(2).click({ position: { x: 20, y: 10 } });
    await page.keyboard.press('Control+V');
    await expect.poll(() => date(2).inputValue()).toBe('2026-02-04');
    await form.getByText('"04/02/2026" was read as 4 February 2026 (day first, the way this browser writes dates). If it is 2 April 2026, correct the date.').waitFor();
    await screenshots(page, 'send-records-date-pasted-in-field');
  }, 120_000);

  it('says the batch was not sent while the built-in server is stopped, and History holds no batch of it', async () => {
    const { page: clerk } = world;
    await openScreen(clerk, 'Send records');
    await clerk.getByRole('tab', { name: 'New hires' }).click();
    const person = clerk.getByRole('group', { name: 'Person 1' });
    await person.getByLabel('Last name').fill('Down');
    await person.getByLabel('First name').fill('Service');
    await person.getByLabel('Employee registration').fill('E-DOWN-1');
    await person.getByLabel('Hire date').fill('2026-01-02');
    await person.getByLabel('Employee status').selectOption('ACTIVE');

    await openScreen(clerk, 'Local server');
    const server = clerk.getByRole('region', { name: 'Server' });
    await server.getByRole('button', { name: 'Stop the local server' }).click();
    await server.getByText('Stopped', { exact: true }).waitFor();

    await openScreen(clerk, 'Send records');
    await clerk.getByRole('button', { name: 'Send 1 person' }).click();
    const alert = clerk.getByRole('alert').filter({ hasText: 'The batch was not sent' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('The built-in local test server is stopped');
    expect(await alert.innerText()).toContain('Nothing was imported. Your records are still in the form.');
    expect(await clerk.getByText(/may have reached the service|import them twice/).count()).toBe(0);
    expect(await person.getByLabel('Last name').inputValue()).toBe('Down');
    await screenshots(clerk, 'send-records-not-sent-server-stopped');

    expect((await world.bridge<{ total: number }>('batches.list', {})).total).toBe(0);
    // The browser logs the core's 409 answer itself; nothing else went wrong on the page.
    expect(world.errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
  }, 120_000);
});
