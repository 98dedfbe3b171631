/**
 * Rows typed in Send records live only in the page (never on disk). In Chromium against browser mode: a reload asks
 * first through the browser's own "Leave site?" while a form holds a row not sent; when the engine is gone, the
 * banner's Try again says in words that the rows would be lost and asks, and once the clerk chooses to reload, the
 * browser does not ask a second time.
 */
import { describe, expect, it } from 'vitest';
import { checkZoom, signedInWorld, visit } from './screens-a-kit';

describe('rows not sent, and a reload (browser mode)', () => {
  const signedIn = signedInWorld();

  it('asks before a reload drops them, and Try again asks in words first', async () => {
    const { page, ui } = signedIn;
    const dialogs: string[] = [];
    // Dismissed: the clerk chooses to stay on the page.
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Send records' }).click();
    await page.getByRole('tab', { name: 'Receipts' }).click();
    const lastName = page.getByRole('textbox', { name: 'Last name Receipt 1' });
    await lastName.click();
    await lastName.pressSequentially('Lee');

    await page.evaluate(() => window.location.reload());
    await expect.poll(() => dialogs, { timeout: 10_000 }).toEqual(['beforeunload']);
    expect(await lastName.inputValue()).toBe('Lee');

    // The engine goes away; Try again would reload the page.
    expect(await ui.stop()).toBe(0);
    const lost = page.getByRole('alert').filter({ hasText: 'lost its background service' });
    await lost.waitFor({ timeout: 15_000 });
    await lost.getByRole('button', { name: 'Try again' }).click();
    const ask = page.getByRole('dialog', { name: 'Reload and lose the rows not sent?' });
    await ask.getByText(/^Send records holds 1 row not sent yet \(in its forms, or in its boxes for pasted rows and JSON\)\. They are kept only while this page is open/).waitFor();
    await visit(page, 'send-records-try-again-unsent');
    await checkZoom(page, 'send-records-try-again-unsent');
    await ask.getByRole('button', { name: 'Keep them' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await lastName.inputValue()).toBe('Lee');

    // Chosen with open eyes: the page reloads, and the browser does not ask again.
    await lost.getByRole('button', { name: 'Try again' }).click();
    const navigated = page.waitForEvent('framenavigated');
    await ask.getByRole('button', { name: 'Reload and lose them' }).click();
    await navigated;
    expect(dialogs).toEqual(['beforeunload']);
  }, 120_000);
});
