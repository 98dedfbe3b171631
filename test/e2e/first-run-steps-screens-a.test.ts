/**
 * The first run for the keyboard and a screen reader, in Chromium against browser mode with a real service, keychain
 * and folder: the steps are a list named Set-up steps whose items read "Step 1 of 3: Environment, done. Where files
 * go", the open one marked as the current step, and Next and Back take the focus to the heading of the step that
 * opens, so it is read, instead of leaving it on a button that is gone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiApp } from '../helpers/ui-app';
import { allAxeViolations } from './axe-kit';
import { checkZoom, startWorld, TEST_CLIENT, visit, type World } from './screens-a-kit';

/** The steps as Chromium's accessibility tree has them (Playwright's snapshot of it), and the one marked current. */
async function steps(page: Page): Promise<{ tree: string; current: string }> {
  const list = page.getByRole('list', { name: 'Set-up steps' });
  // The snapshot puts a space where a hidden word meets a shown one ("Environment , done"): a reader does not say it.
  const tree = (await list.ariaSnapshot()).replace(/ ([.,])/g, '$1');
  const current = await list.locator('li[aria-current="step"]').evaluateAll((items) => items.map((item) => item.querySelector('[class*="stepLabel"]')?.textContent).join());
  return { tree, current };
}
const focusedHeading = (page: Page) => page.evaluate(() => (document.activeElement?.tagName === 'H2' ? document.activeElement.textContent : `not a heading: ${document.activeElement?.outerHTML.slice(0, 80)}`));

describe('first run: steps for the keyboard and a screen reader (browser mode)', () => {
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

  it('lists the steps with the current one marked, and Next and Back take the focus to the heading of the step that opens', async () => {
    const { page, errors, close } = await world.open(ui);
    await page.getByRole('heading', { name: 'Choose the environment' }).waitFor();
    expect(await steps(page)).toEqual({
      tree: [
        '- list "Set-up steps":',
        '  - listitem: "Step 1 of 3: Environment. Where files go"',
        '  - listitem: "Step 2 of 3: Credentials. Connect to the service"',
        '  - listitem: "Step 3 of 3: Folder. Where exports are saved"',
      ].join('\n'),
      current: 'Step 1 of 3: Environment. ',
    });
    await visit(page, 'first-run-steps-1');
    await checkZoom(page, 'first-run-steps-1');

    await page.getByRole('radio', { name: /^Local test server/ }).check();
    await page.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedHeading(page)).toBe('Connect to Local test server');
    expect(await steps(page)).toEqual({
      tree: [
        '- list "Set-up steps":',
        '  - listitem: "Step 1 of 3: Environment, done. Where files go"',
        '  - listitem: "Step 2 of 3: Credentials. Connect to the service"',
        '  - listitem: "Step 3 of 3: Folder. Where exports are saved"',
      ].join('\n'),
      current: 'Step 2 of 3: Credentials. ',
    });
    await visit(page, 'first-run-steps-2-focus');
    expect(await allAxeViolations(page)).toEqual([]);
    await checkZoom(page, 'first-run-steps-2-focus');

    // Back, and on again through a connection test to the last step.
    await page.getByRole('button', { name: 'Back' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedHeading(page)).toBe('Choose the environment');
    await page.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedHeading(page)).toBe('Connect to Local test server');
    await page.getByLabel('Base URL').fill(world.server.url);
    await page.getByLabel('Client ID').fill(TEST_CLIENT.id);
    await page.getByLabel('Client secret', { exact: true }).fill(TEST_CLIENT.secret);
    await page.getByRole('button', { name: 'Save and test connection' }).click();
    await page.getByText(/^Connected in \d+ ms/).waitFor();
    await page.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedHeading(page)).toBe('Choose the watched folder');
    expect((await steps(page)).current).toBe('Step 3 of 3: Folder. ');
    await visit(page, 'first-run-steps-3-focus');
    expect(errors).toEqual([]);
    await close();
  }, 120_000);
});
