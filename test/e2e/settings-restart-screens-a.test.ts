/** Settings a clerk saves survive a restart of the app: the file's values and the keychain's secret. */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiApp } from '../helpers/ui-app';
import { firstRun, startWorld, visit, type World } from './screens-a-kit';

const SANDBOX_SECRET = 'sandbox-secret-never-on-disk';

describe('Settings across a restart (browser mode, real keychain)', () => {
  let world: World;
  let ui: UiApp | undefined;
  beforeAll(async () => {
    world = await startWorld();
  }, 120_000);
  afterAll(async () => {
    await ui?.stop();
    await world?.stop();
  });

  it('keeps environments, credentials and file handling after the app is stopped and started again', async () => {
    const archive = join(world.folder, '..', 'archive');
    await mkdir(archive);
    ui = await world.startUi();
    const first = await world.open(ui);
    const page = first.page;
    await firstRun(page, world);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Sandbox' }).click();
    const sandbox = page.getByRole('form', { name: 'Sandbox' });
    await sandbox.getByLabel('Base URL').fill('https://sandbox.payroll.example');
    await sandbox.getByLabel('Client ID').fill('sandbox-clerk');
    await sandbox.getByLabel('Client secret', { exact: true }).fill(SANDBOX_SECRET);
    await sandbox.getByRole('button', { name: 'Save' }).click();
    await sandbox.getByText('Saved.').waitFor();

    const files = page.getByRole('form', { name: 'Files' });
    await files.getByLabel('Stability time (seconds)').fill('5');
    await files.getByRole('switch', { name: /polling/ }).check();
    await files.getByLabel('Polling interval (seconds)').fill('10');
    await files.getByLabel('Archive folder').fill(archive);
    await files.getByRole('radio', { name: /^Block/ }).check();
    await files.getByLabel('Proxy').fill('http://proxy.example.com:8080');
    await files.getByRole('button', { name: 'Add rule' }).click();
    const rule = files.getByRole('group', { name: 'Rule 3' });
    await rule.getByLabel('Name contains').fill('rcpt');
    await rule.getByLabel('File type').selectOption({ label: 'Receipt' });
    await files.getByRole('button', { name: 'Save' }).click();
    await files.getByText('Saved.').waitFor();
    expect(first.errors).toEqual([]);
    await first.close();

    expect(await ui.stop()).toBe(0);
    // The secret went to the keychain only: no file of the app holds it.
    for (const name of await readdir(world.dataDir, { recursive: true })) {
      const text = await readFile(join(world.dataDir, name)).catch(() => Buffer.alloc(0));
      expect(text.includes(SANDBOX_SECRET), name).toBe(false);
    }

    ui = await world.startUi();
    const again = await world.open(ui);
    const after = again.page;
    // Set up already: straight to the Queue, watching the folder.
    await after.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
    await after.getByText(world.folder, { exact: true }).waitFor();
    await after.getByRole('link', { name: 'Settings' }).click();
    await after.getByRole('tab', { name: 'Sandbox' }).click();
    const sandboxAfter = after.getByRole('form', { name: 'Sandbox' });
    await expect.poll(() => sandboxAfter.getByLabel('Base URL').inputValue()).toBe('https://sandbox.payroll.example');
    await expect.poll(() => sandboxAfter.getByLabel('Client ID').inputValue()).toBe('sandbox-clerk');
    expect(await sandboxAfter.getByLabel('Client secret', { exact: true }).inputValue()).toBe('');
    await sandboxAfter.getByText(/A secret is stored in the system keychain/).waitFor();

    const filesAfter = after.getByRole('form', { name: 'Files' });
    expect(await filesAfter.getByLabel('Stability time (seconds)').inputValue()).toBe('5');
    expect(await filesAfter.getByRole('switch', { name: /polling/ }).isChecked()).toBe(true);
    expect(await filesAfter.getByLabel('Polling interval (seconds)').inputValue()).toBe('10');
    expect(await filesAfter.getByLabel('Archive folder').inputValue()).toBe(archive);
    expect(await filesAfter.getByRole('radio', { name: /^Block/ }).isChecked()).toBe(true);
    expect(await filesAfter.getByLabel('Proxy').inputValue()).toBe('http://proxy.example.com:8080');
    const ruleAfter = filesAfter.getByRole('group', { name: 'Rule 3' });
    expect(await ruleAfter.getByLabel('Name contains').inputValue()).toBe('rcpt');
    expect(await ruleAfter.getByLabel('File type').inputValue()).toBe('2');
    await visit(after, 'settings-after-restart');
    expect(again.errors).toEqual([]);
    await again.close();
  }, 240_000);
});
