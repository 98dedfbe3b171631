/**
 * The Queue while the service refuses the client's credentials, in Chromium against browser mode with a real core,
 * service, keychain and folder. The app opens on Sandbox, watching, with the right client ID and a wrong secret in the
 * keychain: a file saved in the folder is checked and then held, and the folder's header says that new files wait
 * until the client ID and secret are put right in Settings, not that they are "uploaded on their own", and goes on
 * saying it once the clerk dismisses the message that told of it (the core's folder state says the files are held,
 * not the message). Once the clerk saves the right secret on Settings, the file goes and the header says so again.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { callBridge, startUiApp, type UiApp } from '../helpers/ui-app';
import { startWorld, TEST_CLIENT, visit, type World } from './screens-a-kit';

const PROMISE = 'New files saved in this folder are uploaded on their own.';

describe('Queue: files held for credentials the service refuses (browser mode)', () => {
  let world: World;
  let ui: UiApp;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  const folderSection = () => page.getByRole('region', { name: 'Watched folder' });

  beforeAll(async () => {
    world = await startWorld();
    ui = await startUiApp({
      dataDir: world.dataDir,
      env: world.keyring.env,
      settings: {
        activeProfile: 'sandbox', profiles: { sandbox: { baseUrl: world.server.url } },
        watchedFolder: world.folder, stabilityMs: 300, sweepIntervalMs: 1000,
      },
    });
    const saved = await callBridge(ui, 'credentials.set', { profile: 'sandbox', clientId: TEST_CLIENT.id, clientSecret: 'not-the-secret-123' });
    expect(saved.body).toMatchObject({ ok: true });
    ({ page, errors, close } = await world.open(ui));
    await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await ui?.stop();
    await world?.stop();
  });

  it('says new files wait until the credentials are put right, with the way to Settings, once a file is held', async () => {
    await folderSection().getByText('Watching', { exact: true }).waitFor({ timeout: 10_000 });
    // Nothing refused yet: the app cannot know before it asks the service.
    await folderSection().getByText(PROMISE).waitFor();
    await writeFile(join(world.folder, 'census-held.csv'), csvText('census', [censusRow(1), censusRow(2)]));

    // The core's notice that every file is held for the credentials, and the header with it.
    await page.getByRole('region', { name: 'Messages' }).getByText(/The service did not accept the client ID/).waitFor({ timeout: 60_000 });
    await folderSection().getByText(/^No file is uploaded until the service accepts the client ID and secret: check them in Settings\./).waitFor();
    expect(await folderSection().innerText()).toContain('New files saved in this folder are picked up and checked, then wait in the queue.');
    expect(await folderSection().getByText(/uploaded on their own/).count()).toBe(0);
    expect(await folderSection().getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('#/settings');
    await page.getByRole('list', { name: 'Files in the queue' }).getByText('census-held.csv').waitFor();
    await visit(page, 'queue-held-credentials');
  }, 120_000);

  it('keeps saying new files wait once the clerk dismisses the message: the files are still held', async () => {
    const messages = page.getByRole('region', { name: 'Messages' });
    await messages.getByRole('button', { name: /^Dismiss: The service did not accept the client ID/ }).click();
    await messages.getByText(/The service did not accept the client ID/).waitFor({ state: 'detached' });
    // Without the message to point to, the header says on its own what to do; it still promises no upload.
    await folderSection().getByText(
      'No file is uploaded until the service accepts the client ID and secret: check them in Settings. Once they are right, the files go on their own.',
    ).waitFor();
    const words = await folderSection().innerText();
    expect(words).toContain('New files saved in this folder are picked up and checked, then wait in the queue.');
    expect(words).not.toContain('uploaded on their own');
    expect(words).not.toContain('message above');
    expect(await folderSection().getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('#/settings');
    await visit(page, 'queue-held-credentials-dismissed');
  }, 120_000);

  it('promises uploads again once the right secret is saved on Settings, and the file goes', async () => {
    await folderSection().getByRole('link', { name: 'Open Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
    const section = page.getByRole('region', { name: 'Environments' });
    await section.getByRole('tab', { name: 'Sandbox' }).click();
    const sandbox = section.getByRole('form', { name: 'Sandbox' });
    await sandbox.getByLabel('Client secret', { exact: true }).fill(TEST_CLIENT.secret);
    await sandbox.getByRole('button', { name: 'Save' }).click();
    await sandbox.getByText('Saved.').waitFor();

    await page.getByRole('link', { name: 'Queue' }).click();
    await folderSection().getByText(PROMISE).waitFor({ timeout: 60_000 });
    expect(await folderSection().getByText(/client ID and secret/).count()).toBe(0);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('row').filter({ hasText: 'census-held.csv' }).filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
  }, 180_000);
});
