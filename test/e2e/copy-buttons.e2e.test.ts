/**
 * End to end in Debian's Chromium: the Copy buttons of the Local server screen put the very text on the clipboard and
 * say "Copied"; where the clipboard refuses (as Electron's session did for every page before the app's own was let
 * write to it, session-guards.ts), the screen says the text was not copied and how to copy it by hand.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allAxeViolations } from './axe-kit';
import { openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';

describe('Copy buttons in Chromium', () => {
  let world: ScreensWorld;

  beforeAll(async () => {
    world = await startScreensWorld();
    await world.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.app.url });
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  it('copies the server address and the client secret, and says when the clipboard refused', async () => {
    const { page } = world;
    await openScreen(page, 'Local server');
    const server = page.getByRole('region', { name: 'Server' });
    await server.getByText('Running').waitFor();
    const { url } = await world.bridge<{ url: string }>('localServer.state');
    const { clientSecret } = await world.bridge<{ clientSecret: string }>('localServer.credentials');
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    /**
     * Clicks `button` and returns every label it showed until it is back to `label`: "Copied" lasts 2 s, which a
     * loaded machine could let pass between two looks, so each change is recorded in the page as it happens.
     */
    const labelsAfterClick = async (button: Locator, label: string) => {
      await button.evaluate((el) => {
        const seen: string[] = [];
        (window as unknown as { labelsSeen: string[] }).labelsSeen = seen;
        new MutationObserver(() => seen.push(el.textContent ?? '')).observe(el, { subtree: true, childList: true, characterData: true });
      });
      await button.click();
      // Back to its label after a moment.
      await page.waitForFunction((back) => (window as unknown as { labelsSeen: string[] }).labelsSeen.at(-1) === back, label);
      return page.evaluate(() => (window as unknown as { labelsSeen: string[] }).labelsSeen);
    };

    const copyAddress = server.getByRole('button', { name: 'Copy address' });
    expect(await labelsAfterClick(copyAddress, 'Copy')).toEqual(['Copied', 'Copy']);
    expect(await clipboard()).toBe(url);

    const creds = page.getByRole('region', { name: 'Client credentials' });
    const copySecret = creds.getByRole('button', { name: 'Copy client secret' });
    expect(await labelsAfterClick(copySecret, 'Copy')).toEqual(['Copied', 'Copy']);
    // The secret itself, though the screen shows it hidden.
    expect(await clipboard()).toBe(clientSecret);
    const notCopied = 'Not copied: the clipboard could not be written here. Select the text and press Ctrl+C to copy it.';
    expect(await page.getByText(notCopied).count()).toBe(0);

    // A clipboard that refuses the page (Electron's denial cannot run here: the browser's answer is put in its place).
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    });
    await copyAddress.click();
    // Shown beside the button (and said once to a screen reader, in a hidden live region of its own).
    await server.getByRole('paragraph').filter({ hasText: notCopied }).waitFor();
    expect(await copyAddress.innerText()).toBe('Copy');
    expect(await clipboard()).toBe(clientSecret);
    await screenshots(page, 'local-server-not-copied');
    expect(await allAxeViolations(page)).toEqual([]);
    expect(world.errors).toEqual([]);
  }, 120_000);
});
