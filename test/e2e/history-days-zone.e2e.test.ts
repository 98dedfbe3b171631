/**
 * History's day filters follow the dates it shows, in Chromium set to New York, against browser mode with a real core
 * and journal. The files and batches were found and sent while the PC was set to Tokyo (UTC+9) instead of New York
 * (UTC-5 in November), so the journal's found_day is Tokyo's date: a file found at 12:13 PM Nov 24 in New York was filed
 * under Nov 25. Filtering Nov 24 must list the files and batches History shows on Nov 24, on both tabs alike.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../electron/core/queue/journal';
import { launchBrowser } from '../helpers/browser';
import { startTestServer, tempDir, TEST_CLIENT, type TestServer } from '../helpers/local-server';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app';

const ZONE = 'America/New_York';
/** Found (or sent) at 12:13 PM Nov 24 in New York: Tokyo called it 2:13 AM Nov 25. */
const NOON_24 = Date.UTC(2026, 10, 24, 17, 13);
/** Found (or sent) at 3:00 PM Nov 23 in New York: Tokyo called it 5:00 AM Nov 24. */
const AFTERNOON_23 = Date.UTC(2026, 10, 23, 20, 0);
/** Long enough for a filtered window to be fetched and drawn. */
const POLL = { timeout: 15_000 };
const tokyoDay = (at: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(at);

/** Two finished files and two sent batches, journaled as the queue left them on the PC set to Tokyo. */
function seedJournal(dataDir: string): void {
  const journal = openJournal(dataDir);
  journal.transaction(() => {
    for (const [name, at] of [['census-noon.csv', NOON_24], ['census-afternoon.csv', AFTERNOON_23]] as const) {
      const job = journal.insertJob({ path: `/exports/${name}`, name, size: 134, mtimeMs: at }, at, tokyoDay(at));
      journal.update(job.id, { state: 'uploaded', fileType: '1', uploadedAt: at + 1000, archivedPath: `/exports/uploaded/${name}`, archivedAt: at + 2000 }, at + 2000);
    }
    for (const at of [NOON_24, AFTERNOON_23]) {
      const batch = journal.insertBatch('census', 1, at);
      journal.updateBatch(batch.id, { state: 'failed', error: 'the service did not answer' }, at + 1000);
    }
  });
  journal.close();
}

/** The rows' cells of a table (the heading row left out), as text. */
async function rowsOf(page: Page, table: string): Promise<string[][]> {
  const rows = page.getByRole('table', { name: table }).getByRole('row');
  const texts: string[][] = [];
  for (const row of (await rows.all()).slice(1)) texts.push((await row.getByRole('cell').allInnerTexts()).map((text) => text.trim()));
  return texts;
}

describe('History: the days found and sent filter by the dates shown, in New York after a PC set to Tokyo (Chromium)', () => {
  let server: TestServer;
  let dataDir: string;
  let ui: UiApp;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer();
    dataDir = await tempDir('history-zone-');
    const folder = join(dataDir, 'exports');
    await mkdir(folder);
    seedJournal(dataDir);
    ui = await startUiApp({
      dataDir,
      settings: { activeProfile: 'local', profiles: { local: { baseUrl: server.url, clientId: TEST_CLIENT.id } }, watchedFolder: folder },
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret, TZ: ZONE },
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('lists under Nov 24 the file and the batch History shows on Nov 24', async () => {
    const context = await browser.newContext({ timezoneId: ZONE, locale: 'en-US', viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await signIn(page, ui);
      await page.getByRole('link', { name: 'History' }).click();
      await page.getByText('2 files').waitFor();
      await expect.poll(async () => (await rowsOf(page, 'Finished files')).map((cells) => [cells[0], cells[3]]), POLL)
        .toEqual([['census-noon.csv', 'Nov 24, 2026, 12:13 PM'], ['census-afternoon.csv', 'Nov 23, 2026, 3:00 PM']]);

      await page.getByLabel('Found from').fill('2026-11-24');
      await page.getByLabel('Found to').fill('2026-11-24');
      await expect.poll(async () => (await rowsOf(page, 'Finished files')).map((cells) => [cells[0], cells[3]]), POLL)
        .toEqual([['census-noon.csv', 'Nov 24, 2026, 12:13 PM']]);
      await page.getByText('1 file', { exact: true }).waitFor();
      // Nov 23 alone: the afternoon's file, which Tokyo had called Nov 24.
      await page.getByLabel('Found from').fill('2026-11-23');
      await page.getByLabel('Found to').fill('2026-11-23');
      await expect.poll(async () => (await rowsOf(page, 'Finished files')).map((cells) => cells[0]), POLL).toEqual(['census-afternoon.csv']);

      // Sent records: the same day, the same rule.
      await page.getByText('Sent records', { exact: true }).click();
      await page.getByLabel('Sent from').fill('2026-11-24');
      await page.getByLabel('Sent to').fill('2026-11-24');
      await expect.poll(async () => (await rowsOf(page, 'Batches of records sent')).map((cells) => cells[3]), POLL).toEqual(['Nov 24, 2026, 12:13 PM']);
      await page.getByText('1 batch', { exact: true }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
