/** A new clerk opens the app: the guided set-up, through a successful connection test, to a watched folder. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiApp } from '../helpers/ui-app';
import { checkZoom, firstRun, startWorld, visit, type World } from './screens-a-kit';

describe('first run (browser mode, real service, keychain and folder)', () => {
  let world: World;
  let ui: UiApp;
  beforeAll(async () => {
    world = await startWorld();
    ui = await world.startUi();
  }, 120_000);
  afterAll(async () => {
    await ui?.stop();
    await world?.stop();
  });

  it('walks from an empty app to a successful connection test and a watched folder', async () => {
    const { page, errors, close } = await world.open(ui);
    await firstRun(page, world, true);
    await page.getByText(world.folder, { exact: true }).waitFor();
    await page.getByText('Watching', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Nothing waiting' }).waitFor();
    await visit(page, 'queue-empty');
    await checkZoom(page, 'queue-empty');

    // The keyboard reaches everything: on a page opened afresh, the skip link first, then the navigation. (Right after
    // the set-up the focus is on the Queue's content, and Tab goes on from there: first-run-end-focus-screens-a.)
    await page.reload();
    await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.getByRole('link', { name: 'Settings' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
    await page.getByText(/A secret is stored in the system keychain/).first().waitFor();
    expect(await page.getByLabel('Client secret', { exact: true }).first().inputValue()).toBe('');
    await visit(page, 'settings');
    await checkZoom(page, 'settings');
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'No finished files yet' }).waitFor();
    await visit(page, 'history-empty');
    expect(errors).toEqual([]);
    await close();
  }, 180_000);
});
