/**
 * A delivery's details open over the Deliveries screen, in Chromium against `payroll-uploader ui --local-server` with
 * a real webhook receiver: axe-core finds no violation of any impact there, the app's header being the page's only
 * banner landmark (the dialog's title bar was a second one).
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
});
