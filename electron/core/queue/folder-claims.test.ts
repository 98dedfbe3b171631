import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { eventually, tempDir } from '../../../test/helpers/local-server';
import type { FolderClaims } from './folder-claims';
import { CLAIMS_FOLDER, claimOwner, createFolderClaims } from './folder-claims';

const exists = (path: string) => stat(path).then(() => true, () => false);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// A heartbeat every 250 ms.
const TIMEOUT_MS = 1000;

describe('folder claims', () => {
  let claims: FolderClaims | undefined;
  afterEach(async () => {
    await claims?.stop();
    claims = undefined;
  });

  const start = async () => {
    const root = await tempDir('payroll-claims-');
    claims = createFolderClaims({ dataDir: join(root, 'data'), logger: createLogger('claims', () => undefined), timeoutMs: TIMEOUT_MS });
    return { root, claims };
  };

  it('names one data folder however it is spelt: a trailing slash or a relative path is the same uploader', () => {
    const owner = claimOwner('/x/data', 'desk-1');
    expect(claimOwner('/x/data/', 'desk-1')).toBe(owner);
    expect(claimOwner('/x/./other/../data', 'desk-1')).toBe(owner);
    expect(claimOwner(join(process.cwd(), 'data'), 'desk-1')).toBe(claimOwner('data', 'desk-1'));
    expect(claimOwner('/x/data-2', 'desk-1')).not.toBe(owner);
  });

  it('never creates the watched folder: one renamed away stays missing, and gets its claim folder back once it returns', async () => {
    const { root, claims } = await start();
    const folder = join(root, 'exports');
    await mkdir(folder);
    await claims.watch(folder, () => undefined, () => false);
    const mine = join(folder, CLAIMS_FOLDER, claims.owner);
    expect(await exists(mine)).toBe(true);

    await rename(folder, join(root, 'exports-moved'));
    await sleep(4 * 250);
    expect(await exists(folder)).toBe(false);

    await mkdir(folder);
    await eventually(async () => ((await exists(mine)) ? true : undefined), 5000);
  });

  it('watching a folder that does not exist yet leaves it missing until someone makes it', async () => {
    const { root, claims } = await start();
    const folder = join(root, 'typo');
    await claims.watch(folder, () => undefined, () => false);
    await sleep(4 * 250);
    expect(await exists(folder)).toBe(false);
    await mkdir(folder);
    await eventually(async () => ((await exists(join(folder, CLAIMS_FOLDER, claims.owner))) ? true : undefined), 5000);
  });
});
