/**
 * The Queue when Retry now cannot help, in Chromium against browser mode with a real core, service, keychain and
 * folder. A file held by a service that answers 503 to everything waits to retry; after a switch of environment on
 * Settings the Queue shows it waiting for its own service (no Retry now) without a reload, and again waiting to retry
 * once its service is back. A Retry now that fails is told whole, above the list rather than in the file's row, and
 * the row keeps its reason in view.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import type { JobWindow } from '../../shared/bridge';
import { api, getToken } from '../helpers/local-server';
import { callBridge, type UiApp } from '../helpers/ui-app';
import { checkZoom, signedInWorld, TEST_CLIENT, visit } from './screens-a-kit';

/**
 * What of an element cannot be seen: the pixels by which it sticks out of the window or of any box around it that
 * cuts off what overflows (overflow other than visible, or CSS containment of paint). All zero when it is whole.
 */
function cutOff(locator: Locator): Promise<{ top: number; bottom: number; left: number; right: number; by: string[] }> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const cut = { top: Math.max(0, -box.top), bottom: Math.max(0, box.bottom - window.innerHeight), left: Math.max(0, -box.left), right: Math.max(0, box.right - window.innerWidth), by: [] as string[] };
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible' || /strict|content|paint/.test(style.contain);
      if (!clips) continue;
      const frame = up.getBoundingClientRect();
      const over = { top: frame.top - box.top, bottom: box.bottom - frame.bottom, left: frame.left - box.left, right: box.right - frame.right };
      if (Object.values(over).some((px) => px > 0.5)) cut.by.push(`${up.tagName.toLowerCase()}.${up.className}`);
      cut.top = Math.max(cut.top, over.top);
      cut.bottom = Math.max(cut.bottom, over.bottom);
      cut.left = Math.max(cut.left, over.left);
      cut.right = Math.max(cut.right, over.right);
    }
    const round = (px: number) => (px > 0.5 ? Math.round(px) : 0);
    return { top: round(cut.top), bottom: round(cut.bottom), left: round(cut.left), right: round(cut.right), by: cut.by };
  });
}
const WHOLE = { top: 0, bottom: 0, left: 0, right: 0, by: [] };

/** Whether something else is drawn over the middle of the element (a message laid over the list). */
function covered(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !(top && el.contains(top));
  });
}

async function switchTo(page: Page, name: 'Sandbox' | 'Local test server'): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Environments' });
  await section.getByRole('radio', { name: new RegExp(`^${name}`) }).check();
  await section.getByRole('button', { name: `Switch to ${name}` }).click();
  await section.getByText(`Files are now sent to ${name}.`).waitFor();
  await page.getByRole('link', { name: 'Queue' }).click();
  await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
}

/** Waits until the file waits to retry with its next try at least `ms` away (the backoff grows with each failed try). */
async function nextTryAtLeast(ui: UiApp, name: string, ms: number): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { body } = await callBridge(ui, 'jobs.query', { states: ['waiting'] });
    const job = (body as { result: JobWindow }).result.items.find((item) => item.name === name);
    if (job?.nextAttemptAt !== undefined && job.nextAttemptAt - Date.now() >= ms) return;
    if (Date.now() > deadline) throw new Error(`${name} never waited ${ms} ms for its next try: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Queue: a file waiting to retry when Retry now cannot help (Chromium)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 });
  const row = () => signedIn.page.getByRole('list', { name: 'Files in the queue' }).getByRole('listitem').filter({ hasText: 'census-a.csv' });
  const retryButton = () => row().getByRole('button', { name: 'Retry now: census-a.csv' });

  /** Every request of the app's client fails, so the file keeps waiting to retry (each test can run alone). */
  let dropped = false;
  const fileWaitingToRetry = async () => {
    const { world } = signedIn;
    if (!dropped) {
      const token = await getToken(world.server.url);
      expect((await api(world.server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/', errorRate: 1, errorStatus: 503 }])).status).toBe(200);
      await writeFile(join(world.folder, 'census-a.csv'), csvText('census', [censusRow(1), censusRow(2)]));
      dropped = true;
    }
    await row().getByText('Waiting to retry').waitFor({ timeout: 60_000 });
    await retryButton().waitFor();
  };

  it('shows the file waiting for its service after a switch on Settings, without a reload, and back', async () => {
    const { world, page, errors } = signedIn;
    await fileWaitingToRetry();

    // Sandbox is this same service under another environment's name: the file stays queued for Local.
    await page.getByRole('link', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'Environments' });
    await section.getByRole('tab', { name: 'Sandbox' }).click();
    const sandbox = section.getByRole('form', { name: 'Sandbox' });
    await sandbox.getByLabel('Base URL').fill(world.server.url);
    await sandbox.getByLabel('Client ID').fill(TEST_CLIENT.id);
    await sandbox.getByLabel('Client secret', { exact: true }).fill(TEST_CLIENT.secret);
    await sandbox.getByRole('button', { name: 'Save' }).click();
    await sandbox.getByText('Saved.').waitFor();
    await switchTo(page, 'Sandbox');

    await row().getByText('Waiting for its service').waitFor({ timeout: 5_000 });
    expect(await row().innerText()).toContain(`Queued for Local test server (${world.server.url}) as client ${TEST_CLIENT.id}, and sent only there`);
    expect(await retryButton().count()).toBe(0);
    // It stays so: nothing that came in with the switch puts the old step back.
    await page.waitForTimeout(1_000);
    expect(await row().getByText('Waiting for its service').count()).toBe(1);
    await visit(page, 'queue-waiting-for-its-service');

    await switchTo(page, 'Local test server');
    await retryButton().waitFor({ timeout: 30_000 });
    expect(await row().getByText('Waiting for its service').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 180_000);

  it('tells a failed Retry now whole, above the list, and the row keeps the reason it waits', async () => {
    const { ui, page } = signedIn;
    await fileWaitingToRetry();
    const reason = row().getByText(/^Requesting an upload address failed/);
    // The row freezes as it was when the engine stops: stop it while the file waits, not while a try is under way.
    await nextTryAtLeast(signedIn.ui, 'census-a.csv', 5_000);
    await reason.waitFor();
    // The background service goes away: Retry now cannot reach it, a real failure the clerk can meet.
    await ui.stop();
    await retryButton().click();

    // The Retry now message, by its title: the queue's own refresh may fail the same way and say so in an alert of its own.
    const alert = page.getByRole('alert').filter({ hasText: 'Retry now did not work for census-a.csv' });
    await alert.waitFor();
    expect(await cutOff(alert)).toEqual(WHOLE);
    expect(await cutOff(alert.getByText(/the app's engine cannot be reached/))).toEqual(WHOLE);
    // The row is as it was: its reason and its next try, whole.
    expect(await cutOff(reason)).toEqual(WHOLE);
    expect(await reason.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1);
    expect(await covered(reason)).toBe(false);
    // It names the file, since it is not in the file's row, and says why in the engine's words.
    expect(await alert.getByText('Retry now did not work for census-a.csv').count()).toBe(1);
    expect(await alert.getByText(/the app's engine cannot be reached/).count()).toBe(1);
    // The frame says the service is lost too (after 3 seconds): the pictures show what the clerk then sees.
    await page.getByRole('alert').filter({ hasText: 'The app has lost its background service' }).waitFor({ timeout: 10_000 });
    await visit(page, 'queue-retry-failed');
    await checkZoom(page, 'queue-retry-failed');

    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
  }, 120_000);
});
