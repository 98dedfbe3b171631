/**
 * What the notices and the folder's state say about files in the watched folder that cannot be taken up, and about a
 * folder no longer watched. Before:
 * - a file's path typed in the set-up's Folder step (refused there as no folder), then the real folder, left "The
 *   watched folder "…/afile.csv" is a file, not a folder" and "a file named .processing is in the folder
 *   …/afile.csv … remove or rename that file" (false: that path is a CSV file) above a healthy Queue, and after the
 *   first upload "files can be claimed in the watched folder again: the files that waited there are taken up";
 * - a claim problem of a folder no longer watched stayed until a file was claimed in the new one, then was said over;
 * - files that could not be claimed were no job, and the folder's state did not count them: the Queue said "Nothing
 *   waiting – Every file found so far has been dealt with".
 * Real session, keychain, local server and watched folders, through the bridge handlers.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethodName, KeptNotice } from '../../shared/bridge';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe('notices and the folder state about files that cannot be taken up', () => {
  let keyring: KeyringHandle;
  let server: TestServer;
  let engine: UiEngine;
  const dirs: string[] = [];

  const ok = <M extends BridgeMethodName>(method: M, request?: unknown) => callOk(engine, method, request);
  const notices = async (): Promise<KeptNotice[]> => (await ok('notices.list')).items;
  const said = async (pattern: RegExp): Promise<string[]> => (await notices()).map((n) => n.message).filter((m) => pattern.test(m));
  const folder = async (): Promise<string> => {
    const dir = await tempDir('payroll-claims-notices-');
    dirs.push(dir);
    return dir;
  };
  const uploaded = (name: string) => eventually(async () => {
    const { items } = await ok('jobs.query', { text: name });
    return items.find((j) => j.name === name && j.outcome === 'uploaded');
  }, 60_000);

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    server = await startTestServer();
    engine = await startUiEngine({
      settings: { activeProfile: 'local', profiles: { local: { baseUrl: server.url } }, stabilityMs: 200, sweepIntervalMs: 1000 },
    });
    await ok('credentials.set', { profile: 'local', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await server?.stop();
    await keyring?.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("a file's path typed for the folder, then the real folder: no false or stale message is left", async () => {
    const dir = await folder();
    const file = join(dir, 'afile.csv');
    await writeFile(file, censusCsv('typed-file'));
    // The set-up's Folder step: save, start, and learn from the state that no folder is there.
    await ok('watch.setFolder', { folder: file });
    expect(await ok('watch.start')).toMatchObject({ folder: file, state: 'missing' });
    const isAFile = await eventually(async () => (await notices()).find((n) => /is a file, not a folder/.test(n.message)));
    expect(isAFile).toMatchObject({ level: 'error', until: 'watching' });
    // The path is a CSV file: nothing about a .processing file in it.
    expect(await said(/\.processing/)).toEqual([]);

    const real = join(dir, 'exports');
    await mkdir(real);
    await ok('watch.setFolder', { folder: real });
    expect(await ok('watch.start')).toEqual({ folder: real, state: 'watching' });
    expect(await said(/afile\.csv/)).toEqual([]);

    await writeFile(join(real, 'census-after-typo.csv'), censusCsv('after-typo'));
    await uploaded('census-after-typo.csv');
    expect(await said(/can be claimed|\.processing|afile\.csv/)).toEqual([]);
    await ok('watch.stop');
  }, 120_000);

  it('ends the claim problem of a folder no longer watched, silently', async () => {
    const blocked = await folder();
    // A plain file named .processing: the uploader cannot make its claim folder, so no file can be claimed.
    await writeFile(join(blocked, '.processing'), 'not a folder');
    await ok('watch.setFolder', { folder: blocked });
    expect(await ok('watch.start')).toMatchObject({ folder: blocked, state: 'watching' });
    const problem = await eventually(async () => (await notices()).find((n) => /a file named \.processing is in the folder/.test(n.message)));
    expect(problem).toMatchObject({ level: 'error', until: 'files-claimed' });

    // Another folder chosen: the old folder's claim problem is over, said by nothing (no file was claimed anywhere,
    // and no file that waited is taken up).
    const clean = await folder();
    await ok('watch.setFolder', { folder: clean });
    expect(await ok('watch.state')).toEqual({ folder: clean, state: 'watching' });
    expect(await said(/\.processing|can be claimed/)).toEqual([]);
    await writeFile(join(clean, 'census-clean.csv'), censusCsv('clean'));
    await uploaded('census-clean.csv');
    expect(await said(/\.processing|can be claimed/)).toEqual([]);
    await ok('watch.stop');
  }, 120_000);

  it("counts the files that wait unclaimed in the folder's state, as they come and go", async () => {
    const blocked = await folder();
    await writeFile(join(blocked, '.processing'), 'not a folder');
    await ok('watch.setFolder', { folder: blocked });
    await ok('watch.start');
    await eventually(async () => (await notices()).find((n) => /a file named \.processing is in the folder/.test(n.message)));
    // Nothing waits yet.
    expect(await ok('watch.state')).toEqual({ folder: blocked, state: 'watching' });

    await writeFile(join(blocked, 'census-wait-1.csv'), censusCsv('wait-1'));
    await writeFile(join(blocked, 'census-wait-2.csv'), censusCsv('wait-2'));
    const two = await eventually(async () => {
      const state = await ok('watch.state');
      return state.untaken === 2 ? state : undefined;
    });
    expect(two).toEqual({ folder: blocked, state: 'watching', untaken: 2 });
    // Not in the queue: no job for either.
    expect((await ok('jobs.query', { text: 'census-wait' })).items).toEqual([]);
    // One moved away by the clerk no longer waits.
    await rm(join(blocked, 'census-wait-2.csv'));
    await eventually(async () => ((await ok('watch.state')).untaken === 1 ? true : undefined));

    // Put right: the file that waited is taken up, and none waits any more.
    await rm(join(blocked, '.processing'));
    await uploaded('census-wait-1.csv');
    expect(await ok('watch.state')).toEqual({ folder: blocked, state: 'watching' });
    expect(await said(/a file named \.processing/)).toEqual([]);
    await ok('watch.stop');
  }, 120_000);
});
