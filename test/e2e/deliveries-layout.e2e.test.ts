/**
 * The Deliveries table in Debian's Chromium at the widths a clerk has: a laptop (1280 px), windows of 900, 830, 800 and
 * 768 px beside another (the navigation still shown: it folds away below 768 px) and a laptop at 200 % zoom (640 px,
 * the navigation folded away). Real tries of a real webhook receiver (answered 500, not answered, answered 204, still
 * waiting for an answer, and the retries of the refused ones): each row's Details button is in sight without scrolling
 * sideways, neither the table nor the page scrolls sideways, and a try's time takes at most two lines.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { allAxeViolations } from './axe-kit';
import { openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';

const CAPTION = 'Delivery tries, newest first';

type Layout = {
  /** How far the table's region scrolls sideways, and the page. */
  regionOverflow: number;
  pageOverflow: number;
  /** Details buttons whose right edge is past the table's region or the window. */
  detailsOutOfSight: string[];
  /** The most lines a time cell takes. */
  timeLines: number;
};

/** How the table lies in the window as it is now. */
function layout(page: Page): Promise<Layout> {
  return page.evaluate((caption) => {
    const region = document.querySelector<HTMLElement>(`[role="region"][aria-label="${caption}"]`)!;
    const bounds = region.getBoundingClientRect();
    const detailsOutOfSight = [...region.querySelectorAll<HTMLElement>('tbody button')]
      .filter((button) => {
        const box = button.getBoundingClientRect();
        return box.width === 0 || box.right > Math.min(bounds.right, window.innerWidth) + 0.5;
      })
      .map((button) => button.getAttribute('aria-label') ?? '');
    const table = region.querySelector('table')!;
    const timeColumn = [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent === 'Time');
    const lines = [...table.querySelectorAll('tbody tr')].map((row) => {
      // The lines are where the cell's words are drawn: the tops of its text's boxes.
      const tops = new Set<number>();
      const walker = document.createTreeWalker(row.children[timeColumn]!, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(text);
        for (const box of range.getClientRects()) if (box.width > 0 && text.textContent?.trim()) tops.add(Math.round(box.top));
      }
      return tops.size;
    });
    return {
      regionOverflow: region.scrollWidth - region.clientWidth,
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      detailsOutOfSight,
      timeLines: Math.max(...lines),
    };
  }, CAPTION);
}

describe('Deliveries: the table from 1280 px down to 640 px', () => {
  let world: ScreensWorld;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ status: 500 });
    world = await startScreensWorld();
    await world.bridge('localServer.webhook.set', { url: receiver.url });
    // One event answered 500 (and its retries too), one not answered at all, one delivered.
    receiver.script({ status: 500 }, { destroy: true }, { status: 204 });
    for (const [i, lastName] of ['Okafor', 'Lindqvist', 'Haddad'].entries()) {
      const sent = await world.bridge<{ ok: boolean }>('batches.send', {
        kind: 'census',
        records: [{ lastName, firstName: 'Sam', employeeRegistration: `L-${i}`, hireDate: '2026-03-02', employeeStatus: 'ACTIVE' }],
      });
      expect(sent.ok).toBe(true);
    }
  }, 180_000);

  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  it('shows every row whole, Details in sight, at 1280 px, at 900 to 768 px with the navigation and at 200 % zoom', async () => {
    const { page } = world;
    await openScreen(page, 'Deliveries');
    const table = page.getByRole('table', { name: CAPTION });
    // The first tries, and retries of the refused events (the first comes 2 seconds after its try).
    await table.getByRole('row').filter({ hasText: 'Retry' }).first().waitFor({ timeout: 60_000 });
    await table.getByRole('row').filter({ hasText: 'No answer' }).first().waitFor();
    await table.getByRole('row').filter({ hasText: 'Delivered' }).first().waitFor();

    // And a try still waiting for its answer, the widest status there is: the receiver holds it for the 5 seconds the
    // service waits. The list is refreshed by hand until it shows it, then left as it is while it is measured.
    await page.getByRole('switch', { name: 'Refresh every 3 seconds' }).uncheck();
    receiver.script({ hang: true });
    const sent = await world.bridge<{ ok: boolean }>('batches.send', {
      kind: 'census',
      records: [{ lastName: 'Moreau', firstName: 'Sam', employeeRegistration: 'L-3', hireDate: '2026-03-02', employeeStatus: 'ACTIVE' }],
    });
    expect(sent.ok).toBe(true);
    const refresh = page.getByRole('button', { name: 'Refresh now' });
    await expect.poll(async () => {
      await refresh.click();
      await page.waitForFunction(() => [...document.querySelectorAll('button')]
        .every((b) => b.textContent !== 'Refresh now' || b.getAttribute('aria-busy') !== 'true'));
      return table.getByRole('row').filter({ hasText: 'Waiting for an answer' }).count();
    }, { timeout: 30_000 }).toBe(1);

    for (const [width, height] of [[1280, 800], [900, 800], [830, 800], [800, 800], [768, 800], [640, 430]] as const) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(200);
      await screenshots(page, `deliveries-layout-${width}`);
      const now = await layout(page);
      expect({ ...now, timeLines: now.timeLines <= 2 }, `at ${width} px: ${JSON.stringify(now)}`).toEqual({ regionOverflow: 0, pageOverflow: 0, detailsOutOfSight: [], timeLines: true });
      expect(await allAxeViolations(page)).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(world.errors).toEqual([]);
  }, 180_000);
});
