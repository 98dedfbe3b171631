/**
 * History names the service, and the client, that holds each file and got each batch, in the words the Queue uses for
 * a file waiting for its service: in a file's drawer and in the Sent records table. In Chromium against browser mode
 * with a real core, service, keychain and folder.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { callBridge } from '../helpers/ui-app';
import { signedInWorld, TEST_CLIENT, visit } from './screens-a-kit';

const FILE = 'census-held.csv';

describe('History: which service holds each file and batch (browser mode, real service, keychain and folder)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 });
  const service = () => `Local test server (${signedIn.world.server.url}) as client ${TEST_CLIENT.id}`;

  it('says in a file\'s drawer which service, as which client, holds it', async () => {
    const { world, page } = signedIn;
    await writeFile(join(world.folder, FILE), csvText('census', [censusRow(1), censusRow(2)]));
    await page.getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: FILE, exact: true }) });
    await row.filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
    await row.getByRole('button', { name: FILE }).click();
    const drawer = page.getByRole('dialog', { name: FILE });
    await drawer.getByText(`Uploaded to ${service()}: that service holds this exact file.`, { exact: true }).waitFor();
    expect(await drawer.getByRole('row', { name: /^Service/ }).getByRole('cell').innerText()).toBe(service());
    await visit(page, 'history-service-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  }, 120_000);

  it('says in Sent records which service, as which client, got each batch', async () => {
    const { ui, page } = signedIn;
    // Whatever the test before left open.
    if (await page.getByRole('dialog').isVisible()) await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const sent = await callBridge(ui, 'batches.send', { kind: 'census', records: [censusRow(3)] });
    expect(sent.body).toMatchObject({ ok: true, result: { ok: true } });
    await page.getByText('Sent records', { exact: true }).click();
    const table = page.getByRole('table', { name: 'Batches of records sent' });
    await table.waitFor();
    expect(await table.getByRole('columnheader', { name: 'Service' }).count()).toBe(1);
    expect(await table.getByRole('row').filter({ hasText: 'Census batch' }).getByRole('cell').nth(4).innerText()).toBe(service());
    await visit(page, 'history-service-batches');
  }, 60_000);
});
