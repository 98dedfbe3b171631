/**
 * The Queue when the active environment has no service address, in Chromium against browser mode with a real core,
 * service, keychain and folder. The app opens on Sandbox with credentials (from PAYROLL_CLIENT_ID/SECRET) but no Base
 * URL, and a CSV waits in the watched folder: nothing can pick it up, and the Queue says why and what to do instead of
 * "Nothing waiting" under a bare "Not watching". Start watching fails saying the same. Once the clerk saves Sandbox's
 * Base URL on Settings, the folder is watched (the core starts the watch it could not start) and the file is uploaded.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { startUiApp, type UiApp } from '../helpers/ui-app';
import { startWorld, TEST_CLIENT, visit, type World } from './screens-a-kit';

describe('Queue: an environment with no service address (browser mode)', () => {
  let world: World;
  let ui: UiApp;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  const folderSection = () => page.getByRole('region', { name: 'Watched folder' });

  beforeAll(async () => {
    world = await startWorld();
    await writeFile(join(world.folder, 'census-a.csv'), csvText('census', [censusRow(1), censusRow(2)]));
    ui = await startUiApp({
      dataDir: world.dataDir,
      env: { ...world.keyring.env, PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
      settings: { activeProfile: 'sandbox', watchedFolder: world.folder, stabilityMs: 300, sweepIntervalMs: 1000 },
    });
    ({ page, errors, close } = await world.open(ui));
    await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await ui?.stop();
    await world?.stop();
  });

  it('says why the file in the folder is not picked up, and what to do', async () => {
    await folderSection().getByText('Not watching', { exact: true }).waitFor();
    await folderSection().getByText('No service address is set for Sandbox, so files saved in this folder are not picked up.', { exact: false }).waitFor();
    expect(await folderSection().innerText()).toContain('Set it in Settings (Sandbox, Base URL).');
    expect(await folderSection().getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('#/settings');
    // Not "Nothing waiting ... Save an export into the watched folder and it appears here": that is what does not happen.
    await page.getByRole('heading', { name: 'Nothing in the queue' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Nothing waiting' }).count()).toBe(0);
    expect(existsSync(join(world.folder, 'census-a.csv'))).toBe(true);
    await visit(page, 'queue-no-address');
  }, 60_000);

  it('tells a failed Start watching with the reason, not as "Something went wrong"', async () => {
    await folderSection().getByRole('button', { name: 'Start watching' }).click();
    const alert = folderSection().getByRole('alert');
    await alert.getByText('Watching did not start').waitFor();
    expect(await alert.innerText()).toMatch(/No service address is set for Sandbox: enter it in Settings/);
    expect(await alert.getByText('Something went wrong').count()).toBe(0);
    await visit(page, 'queue-no-address-start-failed');
  }, 60_000);

  it('watches by itself once the address is saved on Settings, and the file goes', async () => {
    await folderSection().getByRole('link', { name: 'Open Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
    const section = page.getByRole('region', { name: 'Environments' });
    await section.getByRole('tab', { name: 'Sandbox' }).click();
    const sandbox = section.getByRole('form', { name: 'Sandbox' });
    await sandbox.getByLabel('Base URL').fill(world.server.url);
    await sandbox.getByRole('button', { name: 'Save' }).click();
    await sandbox.getByText('Saved.').waitFor();

    await page.getByRole('link', { name: 'Queue' }).click();
    await folderSection().getByText('Watching', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await folderSection().getByText(/No service address/).count()).toBe(0);
    // The failure of before no longer holds.
    expect(await folderSection().getByRole('alert').count()).toBe(0);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('row').filter({ hasText: 'census-a.csv' }).filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
    // The browser logs the refused Start watching (answered 409) as a failed resource; nothing else may be logged.
    expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  }, 120_000);
});
