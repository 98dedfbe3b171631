/**
 * The Queue while the Local test server environment names the test server built into the app and that server is
 * stopped, in Chromium against browser mode with its embedded server, a real keychain and folder: the folder says why
 * nothing is picked up and leads to the Local server screen (not a bare "Not watching"), and once the clerk starts the
 * server there the folder is watched again by itself and the file saved meanwhile goes.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderState } from '../../shared/bridge';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { allAxeViolations } from './axe-kit';
import { openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';

describe('Queue: the built-in test server stopped (browser mode)', () => {
  let world: ScreensWorld;
  let watched: string;
  const folderSection = () => world.page.getByRole('region', { name: 'Watched folder' });

  beforeAll(async () => {
    world = await startScreensWorld();
    watched = (await world.bridge<FolderState>('watch.state')).folder!;
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  it('says that the server is stopped and leads to the Local server screen', async () => {
    const { page } = world;
    await openScreen(page, 'Queue');
    await folderSection().getByText('Watching', { exact: true }).waitFor({ timeout: 30_000 });

    await openScreen(page, 'Local server');
    await page.getByRole('region', { name: 'Server' }).getByRole('button', { name: 'Stop the local server' }).click();
    await page.getByRole('region', { name: 'Server' }).getByText('Stopped', { exact: true }).waitFor();
    await writeFile(join(watched, 'census-while-stopped.csv'), csvText('census', [censusRow(1)]));

    await openScreen(page, 'Queue');
    await folderSection().getByText('Not watching', { exact: true }).waitFor();
    await folderSection().getByText('The test server built into this app is stopped, so files saved in this folder are not picked up', { exact: false }).waitFor();
    expect(await folderSection().innerText()).toContain('Start it on the Local server screen, or choose another environment in Settings.');
    // Not the words for a folder the clerk simply has not started.
    expect(await folderSection().getByText('The folder is not being watched. Start watching to upload new files.').count()).toBe(0);
    expect(existsSync(join(watched, 'census-while-stopped.csv'))).toBe(true);
    await screenshots(page, 'queue-built-in-server-stopped');
    expect(await allAxeViolations(page)).toEqual([]);
  }, 120_000);

  it('watches again by itself once the clerk starts the server from there, and the file goes', async () => {
    const { page } = world;
    await folderSection().getByRole('link', { name: 'Open Local server' }).click();
    await page.getByRole('heading', { level: 2, name: 'Local server' }).waitFor();
    const server = page.getByRole('region', { name: 'Server' });
    await server.getByRole('button', { name: 'Start the local server' }).click();
    await server.getByText('Running', { exact: true }).waitFor();

    await openScreen(page, 'Queue');
    await folderSection().getByText('Watching', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await folderSection().getByText(/built into this app is stopped/).count()).toBe(0);
    await openScreen(page, 'History');
    await page.getByRole('row').filter({ hasText: 'census-while-stopped.csv' }).filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60_000 });
    expect(world.errors).toEqual([]);
  }, 120_000);
});
