/**
 * The Queue's rows as Chromium draws them, with files held in the queue by a service that answers 503 to everything
 * (the local server's fault injection, so they keep asking for an upload address): one line between two rows and
 * around the list, never a doubled one.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { api, getToken } from '../helpers/local-server';
import { SCREENSHOTS, signedInWorld, visit } from './screens-a-kit';

/**
 * The width in CSS pixels of every horizontal line of the list, top to bottom: the frame's top border with the first
 * row's top border, each pair of neighbouring rows' borders, the last row's bottom border with the frame's.
 */
function horizontalLines(page: Page): Promise<number[]> {
  return page.getByRole('list', { name: 'Files in the queue' }).evaluate((list) => {
    const width = (el: Element, side: 'top' | 'bottom') => parseFloat(getComputedStyle(el).getPropertyValue(`border-${side}-width`)) || 0;
    // The frame is the nearest ancestor that draws a border; the rows are what each list item holds.
    let frame: Element | null = list.parentElement;
    while (frame && width(frame, 'top') === 0 && width(frame, 'bottom') === 0) frame = frame.parentElement;
    const rows = [...list.querySelectorAll(':scope > [role="listitem"]')]
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
      .map((item) => item.firstElementChild ?? item);
    const lines = [(frame ? width(frame, 'top') : 0) + width(list, 'top') + width(rows[0]!, 'top')];
    for (let i = 1; i < rows.length; i += 1) lines.push(width(rows[i - 1]!, 'bottom') + width(rows[i]!, 'top'));
    lines.push(width(rows[rows.length - 1]!, 'bottom') + width(list, 'bottom') + (frame ? width(frame, 'bottom') : 0));
    return lines;
  });
}

describe('Queue rows (browser mode, real service, keychain and folder)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 });

  it('draws a single line above the first file, between files and below the last', async () => {
    const { world, page, errors } = signedIn;
    // Every request of the app's client fails, so the files stay in the queue.
    const token = await getToken(world.server.url);
    const faults = await api(world.server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/', errorRate: 1, errorStatus: 503 }]);
    expect(faults.status).toBe(200);
    for (const name of ['census-a.csv', 'census-b.csv', 'census-c.csv']) {
      await writeFile(join(world.folder, name), csvText('census', [censusRow(1), censusRow(2)]));
    }

    const queue = page.getByRole('list', { name: 'Files in the queue' });
    for (const name of ['census-a.csv', 'census-b.csv', 'census-c.csv']) {
      await queue.getByRole('listitem').filter({ hasText: name }).waitFor({ timeout: 60_000 });
    }
    expect(await horizontalLines(page)).toEqual([1, 1, 1, 1]);
    await visit(page, 'queue-waiting');
    // The list in its frame, close up, where a doubled line shows.
    await queue.locator('..').screenshot({ path: join(SCREENSHOTS, 'queue-rows-light.png') });
    expect(errors).toEqual([]);
  }, 180_000);
});
