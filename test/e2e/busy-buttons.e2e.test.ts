/**
 * Buttons that work for a while (a call to the core or the service) keep the keyboard focus, in Chromium against
 * `payroll-uploader ui --local-server`: Mantine drew a busy Button disabled, and Chromium takes the focus off a focused
 * button that becomes disabled, so it fell to the page (<body>), behind an open dialog too, where the next Tab reached
 * a control the clerk could not see. Busy, a button stays focusable and says so (aria-busy, aria-disabled). Seen here
 * on Deliveries (Send again now, in a delivery's dialog), Settings (Save, Save folder) and Send records (Send 1
 * person), each pressed with the keyboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { busyButtons, FOCUSED_AND_BUSY, focused, holdsFocus, NOTE_BUSY_BUTTONS } from './focus-kit';
import { openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';

describe('Busy buttons keep the keyboard focus (Chromium)', () => {
  let world: ScreensWorld;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ status: 204 });
    world = await startScreensWorld();
    await world.page.addInitScript(NOTE_BUSY_BUTTONS);
    await world.page.reload();
  }, 180_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  /** Presses the focused button with Enter; once `done` is shown, the focus is still on it and it was said busy. */
  const pressAndKeepFocus = async (name: string, done: () => Promise<void>) => {
    const { page } = world;
    await busyButtons(page);
    await page.keyboard.press('Enter');
    await done();
    expect(await focused(page)).toBe(`button "${name}"`);
    for (const noted of await busyButtons(page)) expect(noted).toEqual({ name, ...FOCUSED_AND_BUSY });
  };

  it('keeps the focus on Send again now, in the delivery\'s dialog', async () => {
    const { page } = world;
    await world.bridge('localServer.webhook.set', { url: receiver.url });
    await world.bridge('batches.send', {
      kind: 'census',
      records: [{ lastName: 'Okafor', firstName: 'Chidi', employeeRegistration: 'D-1', hireDate: '2026-03-02', employeeStatus: 'ACTIVE' }],
    });
    await openScreen(page, 'Deliveries');
    const delivered = page.getByRole('table', { name: 'Delivery tries, newest first' }).getByRole('row').filter({ hasText: 'Delivered' });
    await delivered.waitFor({ timeout: 60_000 });
    const id = (await delivered.getByRole('rowheader').textContent())!;
    await delivered.getByRole('button', { name: `Details of delivery ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delivery ${id}` });
    const again = dialog.getByRole('button', { name: 'Send again now' });
    await again.focus();
    await pressAndKeepFocus('Send again now', () => dialog.getByRole('status').filter({ hasText: /^Sent again as delivery \d+\.$/ }).waitFor({ timeout: 30_000 }));
    // The next Tab stays in the dialog: nothing of the page behind it is reached.
    await page.keyboard.press('Tab');
    expect(await holdsFocus(dialog)).toBe(true);
    await screenshots(page, 'busy-send-again-focus');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('keeps the focus on Save and Save folder on Settings', async () => {
    const { page } = world;
    await openScreen(page, 'Settings');
    const files = page.getByRole('form', { name: 'Files' });
    await files.getByRole('textbox', { name: 'Stability time (seconds)' }).fill('0.4');
    await files.getByRole('button', { name: 'Save', exact: true }).focus();
    await pressAndKeepFocus('Save', () => files.getByText('Saved.').waitFor());

    const folder = page.getByRole('form', { name: 'Watched folder' });
    const path = await folder.getByRole('textbox', { name: 'Watched folder' }).inputValue();
    await folder.getByRole('button', { name: 'Save folder' }).focus();
    await pressAndKeepFocus('Save folder', () => page.getByText(`Now watching ${path}.`).waitFor());
    expect(world.errors).toEqual([]);
  }, 60_000);

  it('keeps the focus on Send 1 person on Send records', async () => {
    const { page } = world;
    await openScreen(page, 'Send records');
    const person = page.getByRole('group', { name: 'Person 1' });
    await person.getByRole('textbox', { name: 'Last name' }).fill('Nakamura');
    await person.getByRole('textbox', { name: 'First name' }).fill('Aiko');
    await person.getByRole('textbox', { name: 'Employee registration' }).fill('E2E-900');
    await person.getByLabel('Hire date').fill('2026-03-02');
    await person.getByRole('combobox', { name: 'Employee status' }).selectOption({ label: 'Active' });
    await page.getByRole('button', { name: 'Send 1 person' }).focus();
    await pressAndKeepFocus('Send 1 person', () => page.getByRole('status').filter({ hasText: 'The service received 1 record.' }).waitFor({ timeout: 30_000 }));
    await screenshots(page, 'busy-send-records-focus');
    expect(world.errors).toEqual([]);
  }, 60_000);
});
