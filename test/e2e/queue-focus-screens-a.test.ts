/**
 * The Queue worked from the keyboard, in Chromium against browser mode with a real core, service, keychain and folder:
 * the keyboard focus never falls to the page (<body>, from where the next Tab starts again at "Skip to content") when
 * what had it changes. Pause turns into Resume in place, keeping the focus, and the new state is said once; a Retry now
 * that goes as its file is tried hands the focus to the file's row; a Details drawer closed after its file left the
 * queue gives the focus to the list.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobWindow } from '../../shared/bridge';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { api, getToken } from '../helpers/local-server';
import { callBridge, type UiApp } from '../helpers/ui-app';
import { focused, hasFocus, holdsFocus } from './focus-kit';
import { signedInWorld, TEST_CLIENT, visit } from './screens-a-kit';

/** The file's job in the queue, as the core has it now. */
async function queued(ui: UiApp, name: string) {
  const { body } = await callBridge(ui, 'jobs.query', { finished: false });
  return (body as { result: JobWindow }).result.items.find((job) => job.name === name);
}

describe('Queue: the keyboard focus stays on the screen (Chromium)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 });
  const list = () => signedIn.page.getByRole('list', { name: 'Files in the queue' });
  const row = (name: string) => list().getByRole('listitem').filter({ hasText: name });
  const folder = () => signedIn.page.getByRole('region', { name: 'Watched folder' });
  /** The folder is watched (a test before may have left it paused). */
  const watching = async () => {
    const { body } = await callBridge(signedIn.ui, 'watch.state', {});
    if ((body as { result: { state: string } }).result.state === 'paused') await callBridge(signedIn.ui, 'watch.resume', {});
  };
  /** Every request of the app's client fails (503), or none. The token is asked for while tokens are given. */
  let token: string | undefined;
  const serviceFails = async (fails: boolean) => {
    const { world } = signedIn;
    token ??= await getToken(world.server.url);
    const rules = fails ? [{ pathPrefix: '/', errorRate: 1, errorStatus: 503 }] : [];
    expect((await api(world.server.url, token, 'PUT', '/local/v1/faults', rules)).status).toBe(200);
  };

  it('turns Pause into Resume in place: the focus stays on the button, and the new state is said once', async () => {
    const { page, errors } = signedIn;
    // The folder's live region: each announcement is an element of its own.
    const news = folder().locator('[data-announcer="polite"] > *');
    await folder().getByText('Watching', { exact: true }).waitFor();
    // Nothing is news when the screen opens.
    expect(await news.allInnerTexts()).toEqual([]);

    const pause = folder().getByRole('button', { name: 'Pause' });
    await pause.focus();
    await page.keyboard.press('Enter');
    await folder().getByText('Paused', { exact: true }).waitFor();
    const resume = folder().getByRole('button', { name: 'Resume' });
    await expect.poll(() => focused(page)).toBe('button "Resume"');
    expect(await hasFocus(resume)).toBe(true);
    expect(await news.allInnerTexts()).toEqual(['Watched folder: Paused']);
    await visit(page, 'queue-paused-focus');

    await page.keyboard.press('Enter');
    await folder().getByText('Watching', { exact: true }).waitFor();
    await expect.poll(() => focused(page)).toBe('button "Pause"');
    // Each said once.
    expect(await news.allInnerTexts()).toEqual(['Watched folder: Paused', 'Watched folder: Watching']);
    expect(errors).toEqual([]);
  }, 60_000);

  it('gives the focus to the file\'s row when its Retry now goes as the file is tried, not to the page', async () => {
    const { world, ui, page, errors } = signedIn;
    await watching();
    await serviceFails(true);
    await writeFile(join(world.folder, 'census-a.csv'), csvText('census', [censusRow(1), censusRow(2)]));
    const retry = row('census-a.csv').getByRole('button', { name: 'Retry now: census-a.csv' });
    // Its next try by itself is far off, so nothing but the press below changes the row meanwhile.
    await expect.poll(async () => ((await queued(ui, 'census-a.csv'))?.nextAttemptAt ?? 0) - Date.now(), { timeout: 90_000, interval: 200 })
      .toBeGreaterThanOrEqual(10_000);
    await retry.waitFor();
    const before = (await queued(ui, 'census-a.csv'))!.attempts;

    // The service still fails: the file is tried (its Retry now goes while it asks again), then waits again.
    await retry.focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await queued(ui, 'census-a.csv'))?.attempts, { timeout: 60_000 }).toBeGreaterThan(before);
    await row('census-a.csv').getByText('Waiting to retry').waitFor({ timeout: 30_000 });
    await expect.poll(() => holdsFocus(row('census-a.csv'))).toBe(true);
    await visit(page, 'queue-retry-now-focus');
    // The next Tab goes on from the row, not from the top of the page.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button "Retry now: census-a.csv"');
    expect(errors).toEqual([]);
  }, 120_000);

  it('gives the focus to the list when a Details drawer closes after its file left the queue', async () => {
    const { world, ui, page, errors } = signedIn;
    await watching();
    await serviceFails(true);
    // census-a.csv stays in the queue, for the Local test server: uploads go to Sandbox now (the same service under
    // another environment's name).
    expect((await callBridge(ui, 'settings.patch', { profiles: { sandbox: { baseUrl: world.server.url } } })).status).toBe(200);
    expect((await callBridge(ui, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret })).status).toBe(200);
    expect((await callBridge(ui, 'profile.switch', { profile: 'sandbox' })).status).toBe(200);
    await row('census-a.csv').getByText('Waiting for its service').waitFor({ timeout: 30_000 });
    await writeFile(join(world.folder, 'census-b.csv'), csvText('census', [censusRow(3), censusRow(4)]));
    const details = row('census-b.csv').getByRole('button', { name: 'Details: census-b.csv' });
    await details.waitFor({ timeout: 60_000 });

    await details.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'census-b.csv' });
    await drawer.waitFor();
    // The service is back: the file is sent and leaves the queue, and its row with the button that opened the drawer.
    await serviceFails(false);
    const b = await queued(ui, 'census-b.csv');
    await callBridge(ui, 'jobs.retryNow', { id: b!.id });
    await drawer.getByText('census-b.csv is no longer in the queue. History shows how it ended.').waitFor({ timeout: 60_000 });
    await expect.poll(() => row('census-b.csv').count()).toBe(0);

    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(list())).toBe(true);
    await visit(page, 'queue-details-closed-focus');
    // The next Tab goes into the list: the file still there.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button "Details: census-a.csv"');
    expect(errors).toEqual([]);
  }, 180_000);
});
