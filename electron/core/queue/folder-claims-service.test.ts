import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { eventually, tempDir } from '../../../test/helpers/local-server';
import type { StableFile } from '../watcher/stable-file';
import type { ClaimService, FolderClaims } from './folder-claims';
import { CLAIMS_FOLDER, createFolderClaims } from './folder-claims';

// A heartbeat every 250 ms; a claim folder silent for 1 s is stale.
const TIMEOUT_MS = 1000;
const SERVICE = 'https://payroll.example.test';

describe('folder claims belong to the service and client they were made for', () => {
  let made: FolderClaims[] = [];
  afterEach(async () => {
    await Promise.all(made.map((c) => c.stop()));
    made = [];
  });

  const uploader = (root: string, name: string, service: ClaimService) => {
    const said: string[] = [];
    const taken: StableFile[] = [];
    const claims = createFolderClaims({
      dataDir: join(root, name), logger: createLogger('claims', () => undefined), timeoutMs: TIMEOUT_MS, service,
      say: (message) => said.push(message),
    });
    made.push(claims);
    return { claims, said, taken, watch: (folder: string) => claims.watch(folder, (file) => taken.push(file), () => false) };
  };

  it('another client of the same service leaves a silent uploader\'s claims, the same client takes them over, and the first can tell', async () => {
    const root = await tempDir('payroll-claims-service-');
    const folder = join(root, 'exports');
    await mkdir(folder);
    await writeFile(join(folder, 'census-acme.csv'), 'a,b\n1,2\n');
    // A claims the file for client acme, then stops (its heartbeat ends, its claim stays).
    const a = uploader(root, 'data-a', { baseUrl: SERVICE, clientId: 'acme' });
    await a.watch(folder);
    const claimed = await a.claims.claim({ path: join(folder, 'census-acme.csv'), name: 'census-acme.csv', size: 8, mtimeMs: 0 });
    expect(claimed?.path).toBe(join(folder, CLAIMS_FOLDER, a.claims.owner, 'census-acme.csv'));
    await a.claims.stop();
    // A claim of an older version, which recorded no service.
    const old = join(folder, CLAIMS_FOLDER, 'old-desk-12345678');
    await mkdir(old);
    await writeFile(join(old, 'census-old.csv'), 'a,b\n3,4\n');

    // B: same service, client beta. It says once that both wait, and why; it takes neither.
    const b = uploader(root, 'data-b', { baseUrl: SERVICE, clientId: 'beta' });
    await b.watch(folder);
    await eventually(() => (b.said.length >= 2 ? true : undefined), 10_000);
    expect(b.said.find((m) => m.includes('census-acme.csv'))).toMatch(
      new RegExp(`^1 file\\(s\\) \\(census-acme\\.csv\\) wait in .*: the uploader "${a.claims.owner}", silent for 1 s, claimed them for ${SERVICE} as client acme, and this uploader sends only to ${SERVICE} as client beta, so it leaves them there\\.`),
    );
    expect(b.said.find((m) => m.includes('census-old.csv'))).toMatch(/claimed them with an older version, which did not record for which service, so it leaves them there/);
    expect(b.taken).toEqual([]);
    expect(await readdir(join(folder, CLAIMS_FOLDER, a.claims.owner))).toContain('census-acme.csv');
    expect(a.claims.takenOver(claimed!.path)).toBeUndefined();
    await b.claims.stop();

    // C: same service, client acme. It takes A's claim over (never the one without a record), and A's record says so.
    const c = uploader(root, 'data-c', { baseUrl: SERVICE, clientId: 'acme' });
    await c.watch(folder);
    await eventually(() => c.taken[0], 10_000);
    expect(c.taken.map((f) => [f.path, f.claimedFrom])).toEqual([[join(folder, CLAIMS_FOLDER, c.claims.owner, 'census-acme.csv'), join(folder, 'census-acme.csv')]]);
    expect(a.claims.takenOver(claimed!.path)).toBe(c.claims.owner);
    expect(await readdir(old)).toEqual(['census-old.csv']);
  });
});
