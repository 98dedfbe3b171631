import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { createFolderWatcher, type StableFile } from './folder-watcher';
import { waitFor } from '../../../test/helpers/watcher-kit';

const silent = createLogger('watcher-test', () => undefined);

// The sweep is set to 10 minutes, so a file found within waitFor's deadline was found by a file event.
const EVENTS_ONLY = { stabilityMs: 300, sweepIntervalMs: 600_000, folderCheckIntervalMs: 200, logger: silent };

/** A started watcher on `<parent>/exports`, after `prepare` has made that path; always stopped and cleaned up. */
async function withLinkedFolder(
  usePolling: boolean,
  prepare: (parent: string, exports: string) => Promise<void>,
  body: (kit: { parent: string; exports: string; stable: StableFile[]; refused: string[]; folder: boolean[] }) => Promise<void>,
): Promise<void> {
  const parent = await mkdtemp(join(tmpdir(), 'payroll-watcher-link-'));
  const exports = join(parent, 'exports');
  const watcher = createFolderWatcher({ ...EVENTS_ONLY, usePolling, pollIntervalMs: 100, folder: exports });
  const stable: StableFile[] = [];
  const refused: string[] = [];
  const folder: boolean[] = [];
  watcher.on('stable', (file) => stable.push(file));
  watcher.on('refused', (file) => refused.push(file.name));
  watcher.on('folder', ({ present }) => folder.push(present));
  try {
    await prepare(parent, exports);
    await watcher.start();
    await body({ parent, exports, stable, refused, folder });
  } finally {
    await watcher.stop();
    await rm(parent, { recursive: true, force: true });
  }
}

describe('createFolderWatcher: a watched folder whose path is a symbolic link', () => {
  it.each([
    ['native events', false],
    ['polling', true],
  ])('hears a new export in the folder the link leads to, and still refuses a link inside it (%s)', async (_mode, usePolling) => {
    await withLinkedFolder(usePolling, async (parent, exports) => {
      await mkdir(join(parent, 'share'));
      await writeFile(join(parent, 'secret.csv'), 'lastName\nDoe\n');
      await symlink(join(parent, 'share'), exports);
    }, async ({ parent, exports, stable, refused }) => {
      await writeFile(join(parent, 'share', 'census.csv'), 'a,b\n1,2\n');
      await waitFor('census.csv through the linked folder', () => stable.some((file) => file.name === 'census.csv'));
      // Reported under the path the clerk chose, as the sweep reports it, so both name the same file.
      expect(stable.find((file) => file.name === 'census.csv')).toMatchObject({ path: join(exports, 'census.csv'), size: 8 });
      await symlink(join(parent, 'secret.csv'), join(parent, 'share', 'census-link.csv'));
      await waitFor('the link inside the folder refused', () => refused.includes('census-link.csv'));
      expect(stable.map((file) => file.name)).toEqual(['census.csv']);
    });
  });

  it('hears new exports after the folder is moved away and a link to it takes its place', async () => {
    await withLinkedFolder(false, async (_parent, exports) => {
      await mkdir(exports);
    }, async ({ parent, exports, stable, folder }) => {
      await writeFile(join(exports, 'before.csv'), 'a\n');
      await waitFor('before.csv', () => stable.some((file) => file.name === 'before.csv'));
      await rename(exports, join(parent, 'share'));
      await symlink(join(parent, 'share'), exports);
      // A file written before the watch is re-armed would be found by the sweep that follows it, not by an event.
      await waitFor('the folder watched again through the link', () => folder.join() === 'false,true');
      await writeFile(join(parent, 'share', 'after.csv'), 'a\n');
      await waitFor('after.csv through the link', () => stable.some((file) => file.name === 'after.csv'));
      expect(stable.find((file) => file.name === 'after.csv')?.path).toBe(join(exports, 'after.csv'));
    });
  });

  it('follows the link when it is pointed at another folder', async () => {
    await withLinkedFolder(false, async (parent, exports) => {
      await mkdir(join(parent, 'march'));
      await mkdir(join(parent, 'april'));
      await symlink(join(parent, 'march'), exports);
    }, async ({ parent, exports, stable, folder }) => {
      await writeFile(join(parent, 'march', 'census-march.csv'), 'a\n');
      await waitFor('census-march.csv', () => stable.some((file) => file.name === 'census-march.csv'));
      // Repointed in one step, as `ln -sfn` does: a new link renamed over the old one.
      await symlink(join(parent, 'april'), join(parent, 'exports-new'));
      await rename(join(parent, 'exports-new'), exports);
      await waitFor('the folder watched again through the link', () => folder.join() === 'false,true');
      await writeFile(join(parent, 'april', 'census-april.csv'), 'a\n');
      await waitFor('census-april.csv through the repointed link', () => stable.some((file) => file.name === 'census-april.csv'));
      expect(stable.find((file) => file.name === 'census-april.csv')?.path).toBe(join(exports, 'census-april.csv'));
    });
  });
});
