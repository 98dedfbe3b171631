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

    // The keyboard reaches everything: the skip link first, then the navigation.
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
