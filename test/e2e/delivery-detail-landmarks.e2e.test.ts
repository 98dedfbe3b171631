/**
 * A delivery's details open over the Deliveries screen, in Chromium against `payroll-uploader ui --local-server` with
 * a real webhook receiver: axe-core finds no violation of any impact there, the app's header being the page's only
 * banner landmark (the dialog's title bar was a second one). A number the service does not know is said in words at
 * once, asked for once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { allAxeViolations, settled } from './axe-kit';
import { openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';

describe('Deliveries: a delivery in detail (Chromium)', () => {
  let world: ScreensWorld;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ status: 204 });
    world = await startScreensWorld();
  }, 180_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  it('has no axe-core violation of any impact with the details open', async () => {
    const { page } = world;
    await world.bridge('localServer.webhook.set', { url: receiver.url });
    const sent = await world.bridge<{ ok: boolean }>('batches.send', {
      kind: 'census',
      records: [{ lastName: 'Okafor', firstName: 'Chidi', employeeRegistration: 'D-1', hireDate: '2026-03-02', employeeStatus: 'ACTIVE' }],
    });
    expect(sent.ok).toBe(true);
    await openScreen(page, 'Deliveries');
    const delivered = page.getByRole('table', { name: 'Delivery tries, newest first' }).getByRole('row').filter({ hasText: 'Delivered' });
    await delivered.waitFor({ timeout: 60_000 });
    const id = (await delivered.getByRole('rowheader').textContent())!;
    await delivered.getByRole('button', { name: `Details of delivery ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delivery ${id}` });
    await dialog.getByRole('cell', { name: '204', exact: true }).waitFor();
    await settled(page);

    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await allAxeViolations(page)).toEqual([]);
    await screenshots(page, 'deliveries-detail-landmarks');
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('says at once that there is no such delivery, asking the service once, not a failed request after three', async () => {
    const { page } = world;
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('textbox', { name: 'Delivery number' }).fill('99999');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delivery 99999' });
    await dialog.getByRole('alert').filter({ hasText: 'There is no delivery number 99999 for your client.' }).waitFor();
    expect(await dialog.getByText(/Something went wrong|404/).count()).toBe(0);
    await settled(page);
    await screenshots(page, 'deliveries-detail-unknown');
    expect(await allAxeViolations(page)).toEqual([]);
    const log = await world.bridge<{ items: { path: string }[] }>('localServer.requestLog', { limit: 100 });
    expect(log.items.filter((entry) => entry.path === '/law/api/v1/deliveries/99999')).toHaveLength(1);
    // The bridge's own 404 answer is the one line Chromium logs.
    expect(world.errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  }, 60_000);
});
