/**
 * Switching the active environment on Settings, in Chromium against browser mode with a real core, settings file and
 * keychain: the radios only choose, "Switch to …" switches, and Production asks first in a dialog.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, signedInWorld, TEST_CLIENT, visit } from './screens-a-kit';

describe('Settings: switching the active environment (Chromium)', () => {
  const signedIn = signedInWorld();

  it('chooses without switching, switches on the button, and asks before Production', async () => {
    const { page, world, errors } = signedIn;
    const active = async () => {
      const saved = JSON.parse(await readFile(join(world.dataDir, 'settings.json'), 'utf8')) as { activeProfile?: string };
      return saved.activeProfile ?? 'local';
    };
    await page.getByRole('link', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'Environments' });
    const radio = (name: RegExp) => section.getByRole('radio', { name });

    // The arrow keys move the choice through the radios; nothing is switched.
    await radio(/^Local test server/).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await radio(/^Production/).isChecked()).toBe(true);
    await section.getByRole('button', { name: 'Switch to Production' }).waitFor();
    await page.waitForTimeout(300);
    expect(await active()).toBe('local');
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Sandbox has no address yet: the switch happens, and the screen says that nothing is sent there yet.
    await radio(/^Sandbox/).check();
    await section.getByRole('button', { name: 'Switch to Sandbox' }).click();
    await section.getByText(/^Sandbox is now the active environment, but it has no Base URL yet/).waitFor();
    expect(await active()).toBe('sandbox');
    expect(await section.getByRole('radio', { name: 'Sandbox Active now' }).isChecked()).toBe(true);
    await expect.poll(() => radio(/^Sandbox/).evaluate((input) => input === document.activeElement)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await visit(page, 'settings-switch-1-sandbox');

    // Production gets this service's address and client, then is chosen: the button asks first.
    await section.getByRole('tab', { name: 'Production' }).click();
    const production = section.getByRole('form', { name: 'Production' });
    await production.getByLabel('Base URL').fill(world.server.url);
    await production.getByLabel('Client ID').fill(TEST_CLIENT.id);
    await production.getByLabel('Client secret', { exact: true }).fill(TEST_CLIENT.secret);
    await production.getByRole('button', { name: 'Save' }).click();
    await production.getByText('Saved.').waitFor();
    await radio(/^Production/).check();
    const switchButton = section.getByRole('button', { name: 'Switch to Production' });
    await switchButton.click();
    const dialog = page.getByRole('dialog', { name: 'Send real payroll files to Production?' });
    await dialog.waitFor();
    await dialog.getByText(/Files already waiting in the Queue are not sent to Production: each waits for the environment it was queued for/).waitFor();
    await expect.poll(() => dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement)).toBe(true);
    await visit(page, 'settings-switch-2-production-confirm');
    // The full-page picture shows the overlay over the first screenful only; this is what the clerk sees.
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-switch-2-production-confirm-window-light.png') });

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => switchButton.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await active()).toBe('sandbox');

    await switchButton.click();
    await dialog.getByRole('button', { name: 'Yes, send files to Production' }).click();
    await section.getByText('Files are now sent to Production.').waitFor();
    expect(await active()).toBe('production');
    expect(await section.getByRole('alert').count()).toBe(0);
    await expect.poll(() => radio(/^Production/).evaluate((input) => input === document.activeElement)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await visit(page, 'settings-switch-3-production');
    expect(errors).toEqual([]);
  }, 180_000);
});
