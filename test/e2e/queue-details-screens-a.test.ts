/**
 * Why a file waits, whole, in Chromium against browser mode with a real core, service, keychain and folder. The
 * Queue's rows have fixed heights (for a thousand files in flight) and two lines for the reason: files held because
 * the client lacks the upload scope have a reason and an instruction longer than that, and a file name of 237
 * characters must not push them out of the row. Nothing in a row is cut mid-line, at 1280 px or at 200 % zoom, and
 * the row's Details button opens the file's drawer with all of the reason. Held files stay as they are (no retries),
 * so what is checked does not change under the test.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared';
import { upsertClient } from '../../electron/server/auth/clients';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { callBridge } from '../helpers/ui-app';
import { checkZoom, signedInWorld, TEST_CLIENT, visit } from './screens-a-kit';

const SHORT = 'census-2026-06-30.csv';
const LONG = `census-${'folha-de-pagamento-filial-sao-paulo-'.repeat(6)}2026-06-30.csv`;

/**
 * Each part of each row of the list that does not fit in it: a part that ends below the row's padding (cut off by
 * its fixed height) or a head wider than the row. Empty when every row shows its parts whole.
 */
function rowsCut(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Files in the queue' }).evaluate((list) => [...list.querySelectorAll('.queue-row')].flatMap((row) => {
    const style = getComputedStyle(row);
    const box = row.getBoundingClientRect();
    const bottom = box.bottom - parseFloat(style.paddingBottom);
    const right = box.right - parseFloat(style.paddingRight);
    const name = (row.querySelector('.queue-name')?.textContent ?? '').slice(0, 24);
    return [...row.children].flatMap((part) => {
      const rect = part.getBoundingClientRect();
      const cut: string[] = [];
      if (rect.bottom > bottom + 0.5) cut.push(`${name}: .${part.className.split(' ').join('.')} ends ${Math.round(rect.bottom - bottom)} px below the row`);
      if (part.scrollWidth > part.clientWidth + 1 || rect.right > right + 0.5) cut.push(`${name}: .${part.className.split(' ').join('.')} is wider than the row`);
      return cut;
    });
  }));
}

describe('Queue: all of why a file waits (Chromium)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 });

  it('keeps each row whole at 1280 px and 200 % zoom, and shows the whole reason in the file\'s drawer', async () => {
    const { world, ui, page, errors } = signedIn;
    // The service takes the upload scope from the app's client; its credentials saved again, the app asks for a new
    // token, which lacks it: files are held until the uploader starts again.
    upsertClient(world.server.ctx.db, { id: TEST_CLIENT.id, secret: TEST_CLIENT.secret, scopes: SCOPES.filter((s) => s !== 'submissions:write') });
    expect((await callBridge(ui, 'credentials.set', { profile: 'local', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret })).status).toBe(200);
    expect(LONG).toHaveLength(237);
    // Two contents: of two files with one checksum the second waits for the first to be sent.
    await writeFile(join(world.folder, SHORT), csvText('census', [censusRow(1), censusRow(2)]));
    await writeFile(join(world.folder, LONG), csvText('census', [censusRow(3), censusRow(4)]));
    const list = page.getByRole('list', { name: 'Files in the queue' });
    const row = (name: string) => list.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Details: ${name}` }) });
    for (const name of [SHORT, LONG]) await row(name).getByText(/^The client is not allowed to upload files/).waitFor({ timeout: 60_000 });

    // The long name is cut short at its line's end: the badge, the buttons and two lines of the reason fit. A row
    // takes the height of its new step one render after it shows it (the list measures again in an effect), so this
    // is asked until then, not at the moment the reason is first drawn.
    await expect.poll(() => rowsCut(page), { timeout: 5_000 }).toEqual([]);
    await visit(page, 'queue-waiting-long-name');

    await row(LONG).getByRole('button', { name: `Details: ${LONG}` }).click();
    const drawer = page.getByRole('dialog', { name: LONG });
    const why = drawer.getByRole('row', { name: /^Why it waits/ }).getByRole('cell');
    await why.waitFor();
    // All of it, to its last sentence (a held file has made no try that counts: no count of tries).
    expect(await why.innerText()).toMatch(/^The client is not allowed to upload files: it lacks the scope submissions:write .+; give the client submissions:write at the service, then press Retry now, or run the uploader again on the command line\.$/s);
    expect(await drawer.getByRole('row', { name: /^Found as/ }).getByRole('cell').innerText()).toBe(join(world.folder, LONG));
    await visit(page, 'queue-details');
    // The header is fixed: a page left scrolled would put it in the middle of a full-page picture.
    await page.evaluate(() => window.scrollTo(0, 0));
    await checkZoom(page, 'queue-details');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });

    // At 200 % zoom the window is 640 px wide: the name goes on a line of its own, and the rows grow for it.
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 640, height: 430 });
    try {
      await expect.poll(() => rowsCut(page), { timeout: 5_000 }).toEqual([]);
      await row(SHORT).getByRole('button', { name: `Details: ${SHORT}` }).click();
      const short = page.getByRole('dialog', { name: SHORT });
      expect(await short.getByRole('row', { name: /^Why it waits/ }).getByRole('cell').innerText()).toMatch(/run the uploader again on the command line\.$/);
      await short.getByRole('button', { name: 'Close' }).click();
      await short.waitFor({ state: 'detached' });
      await page.evaluate(() => window.scrollTo(0, 0));
      await checkZoom(page, 'queue-waiting-long-name');
    } finally {
      await page.setViewportSize(size);
    }
    expect(errors).toEqual([]);
  }, 180_000);
});
