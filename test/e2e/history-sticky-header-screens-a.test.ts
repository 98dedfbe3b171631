/**
 * History's long list in Chromium, against browser mode with a real core, service, keychain and folder: 439 finished
 * files in the journal, the page scrolled far down, and the column headings still in sight below the app's header,
 * drawn over the rows that pass under them, in light and in dark.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../electron/core/queue/journal';
import type { UiApp } from '../helpers/ui-app';
import { allAxeViolations, settled } from './axe-kit';
import { firstRun, SCREENSHOTS, startWorld, type World } from './screens-a-kit';

const FILES = 439;

/** A journal holding `count` finished files, uploaded and refused, as the queue leaves them. */
function seedJournal(dataDir: string, count: number): void {
  const journal = openJournal(dataDir);
  const start = Date.now() - count * 60_000;
  journal.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const at = start + i * 60_000;
      const name = `census-export-${String(i).padStart(5, '0')}.csv`;
      const job = journal.insertJob({ path: `/exports/${name}`, name, size: 134, mtimeMs: at }, at, new Date(at).toISOString().slice(0, 10));
      const state = i % 7 === 0 ? 'rejected' : 'uploaded';
      journal.update(job.id, {
        state, fileType: '1', md5: i.toString(16).padStart(32, '0'),
        ...(state === 'rejected' ? { lastError: 'the file has no header row' } : { importId: `import-${i}`, uploadedAt: at + 1000 }),
        archivedPath: `/exports/${state}/${name}`, archivedAt: at + 2000,
      }, at + 2000);
    }
  });
  journal.close();
}

/** Where the headings row is in the window, and what is drawn in its middle (a heading, or a row passing under). */
function headings(page: Page): Promise<{ top: number; appHeaderBottom: number; drawnAtMiddle: string; opaque: boolean }> {
  return page.evaluate(() => {
    const head = document.querySelector<HTMLElement>('[role="table"][aria-label="Finished files"] [role="row"][aria-rowindex="1"]')!;
    const box = head.getBoundingClientRect();
    const drawn = document.elementFromPoint(box.left + 40, box.top + box.height / 2);
    const background = getComputedStyle(head.parentElement!).backgroundColor;
    return {
      top: Math.round(box.top),
      appHeaderBottom: Math.round(document.querySelector('header')!.getBoundingClientRect().bottom),
      drawnAtMiddle: drawn?.closest('[role="columnheader"]')?.textContent ?? `not a heading: ${drawn?.textContent?.slice(0, 40) ?? ''}`,
      opaque: !/rgba\(.*, 0(\.\d+)?\)$/.test(background) && background !== 'transparent',
    };
  });
}

describe('History: the column headings stay in sight over a long list (Chromium)', () => {
  let world: World;
  let ui: UiApp;
  beforeAll(async () => {
    world = await startWorld();
    await mkdir(world.dataDir, { recursive: true });
    seedJournal(world.dataDir, FILES);
    ui = await world.startUi();
  }, 120_000);
  afterAll(async () => {
    await ui?.stop();
    await world?.stop();
  });

  it('keeps the headings below the app header while 439 rows scroll under them, in light and dark', async () => {
    const { page, errors, close } = await world.open(ui);
    await firstRun(page, world);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByText(`${FILES} files`, { exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'Finished files' });
    await table.getByRole('button', { name: 'census-export-00438.csv', exact: true }).waitFor();

    // Far down the list: rows a few hundred places on are drawn, and the headings are where the app header ends.
    await page.evaluate(() => window.scrollTo(0, 8000));
    await table.getByRole('row').filter({ hasText: /census-export-002\d\d\.csv/ }).first().waitFor();
    await mkdir(SCREENSHOTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // The headings' background moves to the scheme's in a transition: pictured and measured once it has.
      await settled(page);
      await page.screenshot({ path: join(SCREENSHOTS, `history-sticky-headings-${scheme}.png`) });
      const now = await headings(page);
      expect(now, scheme).toEqual({ top: now.appHeaderBottom, appHeaderBottom: now.appHeaderBottom, drawnAtMiddle: 'File', opaque: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await allAxeViolations(page)).toEqual([]);

    // Back at the top they sit where they always did, above the first row.
    await page.evaluate(() => window.scrollTo(0, 0));
    const top = await headings(page);
    expect(top.top).toBeGreaterThan(top.appHeaderBottom);
    expect(top.drawnAtMiddle).toBe('File');
    expect(errors).toEqual([]);
    await close();
  }, 180_000);
});
