/**
 * The Queue while a file in the watched folder cannot be taken up, in Chromium against browser mode with a real core,
 * service, keychain and folder. A plain file named .processing in the folder keeps the uploader from claiming the CSV
 * beside it (as a folder it may not write in does): the message above says so, and the Queue says the file waits in
 * the folder. Before, it said "Nothing waiting – Every file found so far has been dealt with". Once the blocking file
 * is removed, the file is uploaded and the Queue is empty again.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { startUiApp, type UiApp } from '../helpers/ui-app';
import { startWorld, TEST_CLIENT, visit, type World } from './screens-a-kit';

describe('Queue: a file that waits in the folder, unclaimed (browser mode)', () => {
  let world: World;
  let ui: UiApp;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    world = await startWorld();
    await writeFile(join(world.folder, '.processing'), 'not a folder');
    await writeFile(join(world.folder, 'census-waits.csv'), csvText('census', [censusRow(1), censusRow(2)]));
    ui = await startUiApp({
      dataDir: world.dataDir,
      env: { ...world.keyring.env, PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
      settings: {
        activeProfile: 'sandbox', profiles: { sandbox: { baseUrl: world.server.url } }, watchedFolder: world.folder,
        stabilityMs: 300, sweepIntervalMs: 1000,
      },
    });
    ({ page, errors, close } = await world.open(ui));
    await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await ui?.stop();
    await world?.stop();
  });

  it('says the file waits in the folder, not that every file was dealt with, until it is taken up', async () => {
    await page.getByRole('region', { name: 'Messages' }).getByText(/a file named \.processing is in the folder/).waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: '1 file waits in the folder' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(/^It cannot be taken up yet: the message above says why and what to do\./).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Nothing waiting' }).count()).toBe(0);
    expect(await page.getByText(/has been dealt with/).count()).toBe(0);
    await visit(page, 'queue-file-waits-unclaimed');

    // Put right: the file is taken up and uploaded, and the Queue is empty again.
    await rm(join(world.folder, '.processing'));
    await page.getByRole('heading', { name: 'Nothing waiting' }).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('heading', { name: /waits? in the folder/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('row').filter({ hasText: 'census-waits.csv' }).filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
  }, 180_000);
});
