/**
 * End to end: `payroll-uploader ui --local-server` with a real watched folder and a real keychain, driven by Debian's
 * Chromium. A CSV dropped into the folder shows up on the page live (events, no reload) and is seen to finish.
 */
import { existsSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { tempDir } from '../helpers/local-server';
import { callBridge, startUiApp, type UiApp } from '../helpers/ui-app';

describe('payroll-uploader ui in Chromium', () => {
  let keyring: KeyringHandle;
  let browser: Browser;
  let app: UiApp;
  let watched: string;

  beforeAll(async () => {
    keyring = await startKeyring();
    watched = await tempDir('payroll-watched-');
    app = await startUiApp({
      localServer: true,
      env: keyring.env,
      settings: { watchedFolder: watched, stabilityMs: 300, sweepIntervalMs: 1000, activeProfile: 'local' },
    });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await keyring?.stop();
    if (watched) await rm(watched, { recursive: true, force: true });
  });

  it('shows a dropped CSV appear and finish, live', async () => {
    const { page, errors, close } = await openPage(browser);
    try {
      await page.goto(app.url);
      // The sign-in code was traded for the cookie and is gone from the address bar.
      await page.waitForURL(`${app.origin}/`);
      await page.getByRole('heading', { name: 'Queue', level: 2 }).waitFor();
      await page.getByRole('heading', { name: 'Nothing waiting' }).waitFor();
      await page.getByRole('link', { name: 'History' }).click();
      await page.getByRole('heading', { name: 'No finished files yet' }).waitFor();

      await writeFile(join(watched, 'census-e2e.csv'), csvText('census', [censusRow(1), censusRow(2), censusRow(3)]));

      // History fills in from the core's events, without a reload.
      const row = page.getByRole('row').filter({ hasText: 'census-e2e.csv' });
      await row.filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
      if (process.env.PAYROLL_SCREENSHOTS) await page.screenshot({ path: join(process.env.PAYROLL_SCREENSHOTS, 'ui-smoke.png') });

      const uploaded = join(watched, 'uploaded');
      const days = await readdir(uploaded);
      expect(days).toHaveLength(1);
      expect(existsSync(join(uploaded, days[0] as string, 'census-e2e.csv'))).toBe(true);

      // The history agrees: one uploaded job whose name holds the text.
      const query = await callBridge(app, 'jobs.query', { outcomes: ['uploaded'], text: 'e2e' });
      expect(query.status).toBe(200);
      expect(query.body).toMatchObject({ ok: true, result: { total: 1, items: [{ name: 'census-e2e.csv', state: 'uploaded', finished: true }] } });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it('keeps the token out of every log line and stops cleanly on SIGTERM', async () => {
    expect(app.stderr()).not.toContain(app.token);
    // The token, then the sign-in address.
    expect(app.stdout().trim().split('\n')).toHaveLength(2);
    expect(await app.stop('SIGTERM')).toBe(0);
    expect(app.stderr()).not.toContain(app.token);
  }, 60_000);
});
