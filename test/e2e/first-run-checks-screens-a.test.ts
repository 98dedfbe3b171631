/**
 * The first run's checks, in Chromium against browser mode with a real service, keychain and folder: a connection test
 * that failed is taken away as soon as the clerk edits the fields it was about (and a successful one too, with the way
 * on), and a watched folder that does not exist is refused at the field, on the set-up, until there is one.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiApp } from '../helpers/ui-app';
import { startWorld, TEST_CLIENT, visit, type World } from './screens-a-kit';

describe('first run: what the clerk typed is checked (browser mode)', () => {
  let world: World;
  let ui: UiApp;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  const failedTest = () => page.getByRole('alert').filter({ hasText: 'The connection test failed' });

  beforeAll(async () => {
    world = await startWorld();
    ui = await world.startUi();
    ({ page, errors, close } = await world.open(ui));
    await page.getByRole('heading', { name: 'Welcome to Payroll Uploader' }).waitFor();
    await page.getByRole('radio', { name: /^Local test server/ }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Connect to Local test server' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await ui?.stop();
    await world?.stop();
  });

  it('takes a connection test result away once the clerk edits the fields it was about', async () => {
    await page.getByLabel('Base URL').fill(world.server.url);
    await page.getByLabel('Client ID').fill(TEST_CLIENT.id);
    await page.getByLabel('Client secret', { exact: true }).fill('not-the-secret');
    await page.getByRole('button', { name: 'Save and test connection' }).click();
    await failedTest().getByText(/wrong client secret/).waitFor();
    await visit(page, 'first-run-test-failed');

    // The clerk types the right secret: the failure was about the old one, and goes at once.
    await page.getByLabel('Client secret', { exact: true }).fill(TEST_CLIENT.secret);
    await expect.poll(() => failedTest().count()).toBe(0);
    // Nor does "Saved." come back: what is typed now is not saved yet.
    expect(await page.getByText('Saved.', { exact: true }).count()).toBe(0);
    await visit(page, 'first-run-test-failed-edited');

    await page.getByRole('button', { name: 'Save and test connection' }).click();
    await page.getByText(/^Connected in \d+ ms/).waitFor();
    await page.getByText('Connected. You can go on to the last step.').waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isEnabled()).toBe(true);

    // A success is about the tested fields too: edited, it goes, and the way on waits for a new test.
    await page.getByLabel('Client ID').fill(`${TEST_CLIENT.id}-changed`);
    await expect.poll(() => page.getByText(/^Connected in \d+ ms/).count()).toBe(0);
    expect(await page.getByText('Connected. You can go on to the last step.').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Next' }).isEnabled()).toBe(false);
    await page.getByLabel('Client ID').fill(TEST_CLIENT.id);
    await page.getByLabel('Client secret', { exact: true }).fill(TEST_CLIENT.secret);
    await page.getByRole('button', { name: 'Save and test connection' }).click();
    await page.getByText(/^Connected in \d+ ms/).waitFor();
  }, 120_000);

  it('refuses a watched folder that does not exist, at the field, and goes on once it does', async () => {
    // Connected (again, should the test above have stopped half-way), to reach the last step.
    if (!(await page.getByRole('button', { name: 'Next' }).isEnabled())) {
      await page.getByLabel('Base URL').fill(world.server.url);
      await page.getByLabel('Client ID').fill(TEST_CLIENT.id);
      await page.getByLabel('Client secret', { exact: true }).fill(TEST_CLIENT.secret);
      await page.getByRole('button', { name: 'Save and test connection' }).click();
      await page.getByText(/^Connected in \d+ ms/).waitFor();
    }
    await page.getByRole('button', { name: 'Next' }).click();
    const field = page.getByRole('textbox', { name: 'Watched folder' });
    const missing = join(world.folder, 'payroll exports');
    await field.fill(missing);
    await page.getByRole('button', { name: 'Start watching this folder' }).click();

    // Still on the set-up, with the reason at the field and the focus on it.
    await page.getByText(`There is no folder at ${missing}. Check the path for a typing mistake`, { exact: false }).waitFor();
    expect(await page.getByRole('heading', { name: 'Choose the watched folder' }).isVisible()).toBe(true);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByRole('heading', { name: 'Queue', level: 2 }).count()).toBe(0);
    expect(existsSync(missing)).toBe(false);
    await visit(page, 'first-run-folder-missing');

    // The clerk makes the folder (in the file manager) and starts again: the set-up ends on the Queue, watching it.
    await mkdir(missing);
    await page.getByRole('button', { name: 'Start watching this folder' }).click();
    await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
    const folder = page.getByRole('region', { name: 'Watched folder' });
    await folder.getByText(missing, { exact: true }).waitFor();
    await folder.getByText('Watching', { exact: true }).waitFor();
    expect(errors).toEqual([]);
  }, 120_000);
});
