/**
 * The end of the first run for the keyboard, in Chromium against browser mode with a real service, keychain and folder.
 * The set-up's last button goes with the whole set-up: the focus then fell to the page (<body>), a screen reader said
 * nothing and the next Tab began again at "Skip to content". Now the Queue's content takes it, whether the set-up is
 * put off (Set up later) or finished (Start watching this folder). On the way, the secret's eye button is reached by
 * Tab and named after what it does (Show secret, Hide secret).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiApp } from '../helpers/ui-app';
import { focused } from './focus-kit';
import { startWorld, TEST_CLIENT, visit, type World } from './screens-a-kit';

/** Whether the focus is on the screen's content (the main element), with the Queue's heading in it. */
const onQueueContent = (page: Page) => page.evaluate(() => {
  const active = document.activeElement;
  return active?.tagName === 'MAIN' && active.id === 'main' && [...active.querySelectorAll('h2')].some((h) => h.textContent === 'Queue');
});

describe('first run: where the focus goes when the set-up ends (browser mode)', () => {
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

  it('gives the focus to the Queue\'s content after Set up later, and the next Tab goes on from there', async () => {
    const { page, errors, close } = await world.open(ui);
    await page.getByRole('heading', { name: 'Choose the environment' }).waitFor();
    await page.getByRole('button', { name: 'Set up later' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
    await expect.poll(() => onQueueContent(page)).toBe(true);
    // Tab goes on into the screen, not back to the top of the page.
    await page.keyboard.press('Tab');
    expect(await focused(page)).not.toMatch(/^(BODY|a "Skip to content")$/);
    expect(await page.evaluate(() => document.getElementById('main')?.contains(document.activeElement))).toBe(true);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it('reaches Show secret by Tab, and gives the focus to the Queue\'s content after Start watching this folder', async () => {
    const { page, errors, close } = await world.open(ui);
    await page.getByRole('heading', { name: 'Choose the environment' }).waitFor();
    await page.getByRole('radio', { name: /^Local test server/ }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Connect to Local test server' }).waitFor();
    await page.getByLabel('Base URL').fill(world.server.url);
    await page.getByLabel('Client ID').fill(TEST_CLIENT.id);
    const secret = page.getByLabel('Client secret', { exact: true });
    await secret.fill(TEST_CLIENT.secret);

    // The eye button comes next in the Tab order, named after what a press does.
    await secret.focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button "Show secret"');
    await page.keyboard.press('Enter');
    expect(await secret.getAttribute('type')).toBe('text');
    expect(await focused(page)).toBe('button "Hide secret"');
    await visit(page, 'first-run-secret-shown');
    await page.keyboard.press('Enter');
    expect(await secret.getAttribute('type')).toBe('password');
    expect(await focused(page)).toBe('button "Show secret"');

    await page.getByRole('button', { name: 'Save and test connection' }).click();
    await page.getByText(/^Connected in \d+ ms/).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('textbox', { name: 'Watched folder' }).fill(world.folder);
    await page.getByRole('button', { name: 'Start watching this folder' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
    await expect.poll(() => onQueueContent(page)).toBe(true);
    await page.getByText('Watching', { exact: true }).waitFor();
    expect(await onQueueContent(page)).toBe(true);
    await visit(page, 'first-run-ended-focus');
    await page.keyboard.press('Tab');
    expect(await focused(page)).not.toMatch(/^(BODY|a "Skip to content")$/);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);
});
