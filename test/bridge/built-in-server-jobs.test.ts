/**
 * Files and the app's own local test server when it stops: queued files say they wait for it (and Retry now says why
 * it cannot), new files stay in the folder rather than being queued for an address nothing listens on, and starting
 * the server again sends them all there and watches again by itself. Real session, keychain, watched folder and the
 * embedded server over HTTP, through the bridge handlers.
 */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethodName, FolderState } from '../../shared/bridge';
import { EMBEDDED_SERVICE } from '../../electron/core/session';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { eventually, tempDir } from '../helpers/local-server';
import { md5Of } from '../helpers/queue-kit';
import { callFails, callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe('files and the built-in local test server', () => {
  let keyring: KeyringHandle;
  let engine: UiEngine;
  let watched: string;

  const ok = <M extends BridgeMethodName>(method: M, request?: unknown) => callOk(engine, method, request);
  const fails = (method: BridgeMethodName, request?: unknown) => callFails(engine, method, request);
  const queued = async (name: string) => (await ok('jobs.query', { finished: false, text: name })).items.find((j) => j.name === name);
  const uploadedOnServer = (checksum: string) => {
    const db = engine.session.localServer.running()?.ctx.db;
    return db ? (db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as { n: number }).n : 0;
  };

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    watched = await tempDir('payroll-built-in-');
    engine = await startUiEngine({ settings: { stabilityMs: 200, sweepIntervalMs: 1000 }, retry: { baseMs: 60_000, maxMs: 120_000 } });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await keyring?.stop();
    await rm(watched, { recursive: true, force: true });
  });

  it('holds files while it is stopped, says why, and sends them once it runs again', async () => {
    const { port } = await ok('localServer.start', {});
    await ok('watch.setFolder', { folder: watched });
    await ok('watch.start');
    // The server refuses handshakes for now: the first file waits, queued for the built-in server.
    await ok('localServer.faults.set', { rules: [{ pathPrefix: '/law/api/v1/payroll-submissions', errorRate: 1 }] });
    const first = csvText('census', [censusRow(1)]);
    await writeFile(join(watched, 'census-first.csv'), first);
    await eventually(async () => ((await queued('census-first.csv'))?.state === 'waiting' ? true : undefined), 30_000);
    expect((await queued('census-first.csv'))?.waitsFor).toBeUndefined();
    await ok('localServer.faults.clear');

    const said: string[] = [];
    const off = engine.session.on('error', (error) => said.push(error.message));
    await ok('localServer.stop');
    off();
    expect(said.join('\n')).toMatch(/built-in local test server is stopped: start it on the Local server screen/);
    expect(await ok('watch.state')).toMatchObject({ state: 'stopped' });

    // The waiting file says what it waits for, and Retry now says why it cannot go instead of doing nothing.
    expect((await queued('census-first.csv'))?.waitsFor).toEqual({ profile: 'local', builtIn: true });
    const first_ = await queued('census-first.csv');
    const retry = await fails('jobs.retryNow', { id: first_?.id });
    expect(retry.code).toBe('conflict');
    expect(retry.message).toMatch(/census-first\.csv waits for the test server built into this app.*start that server on the Local server screen/);

    // A file saved now stays in the folder, not queued for an address nothing listens on.
    const second = csvText('census', [censusRow(2)]);
    await writeFile(join(watched, 'census-second.csv'), second);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await queued('census-second.csv')).toBeUndefined();
    expect(existsSync(join(watched, 'census-second.csv'))).toBe(true);
    // Asking to watch, or sending a batch, says the same.
    expect(await fails('watch.start')).toMatchObject({ code: 'conflict', message: expect.stringMatching(/built-in local test server is stopped/) as unknown });
    expect(await fails('batches.send', { kind: 'census', records: [censusRow(3)] })).toMatchObject({ code: 'conflict' });

    // Started again (on the port it had), the watch goes on by itself and both files reach it, queued for it by name.
    const folders: FolderState[] = [];
    const offFolder = engine.session.on('folder', (state) => folders.push(state));
    const warnings: string[] = [];
    const offWarning = engine.session.on('warning', (line) => warnings.push(typeof line === 'string' ? line : line.message));
    expect((await ok('localServer.start', {})).port).toBe(port);
    await eventually(() => (folders.some((f) => f.state === 'watching') ? true : undefined), 30_000);
    offFolder();
    offWarning();
    // Not "from the last run": the app ran all along, and the upload waited for this server.
    expect(warnings).toEqual(['taking up 1 upload that waited for this service']);
    await eventually(() => (uploadedOnServer(md5Of(first)) === 1 && uploadedOnServer(md5Of(second)) === 1 ? true : undefined), 30_000);
    const jobs = (await engine.session.queue()).jobs().filter((j) => j.name.startsWith('census-'));
    expect(jobs.map((j) => [j.name, j.baseUrl]).sort()).toEqual([['census-first.csv', EMBEDDED_SERVICE], ['census-second.csv', EMBEDDED_SERVICE]]);
  }, 120_000);
});
