/**
 * The folder's state says why the active environment cannot take files: no service address, or the test server built
 * into the app stopped. Said in `watch.state` and in the `folder` event of every change of service, and gone once
 * uploads can go somewhere. Real session, keychain and embedded server, through the bridge handlers (whose answers are
 * checked against the contract).
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethodName, FolderState } from '../../shared/bridge';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { eventually, tempDir } from '../helpers/local-server';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe('why the folder cannot be watched', () => {
  let keyring: KeyringHandle;
  let engine: UiEngine;
  let watched: string;
  const folders: FolderState[] = [];

  const ok = <M extends BridgeMethodName>(method: M, request?: unknown) => callOk(engine, method, request);
  /** The first folder event from now on that matches. */
  const nextFolder = async (matches: (state: FolderState) => boolean): Promise<FolderState> => {
    const from = folders.length;
    return eventually(() => folders.slice(from).find(matches), 30_000);
  };

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    watched = await tempDir('payroll-no-service-');
    engine = await startUiEngine({ settings: { activeProfile: 'sandbox', watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000 } });
    engine.session.on('folder', (state) => folders.push(state));
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await keyring?.stop();
    await rm(watched, { recursive: true, force: true });
  });

  it('names an environment without a service address', async () => {
    expect(await ok('watch.state')).toEqual({ folder: watched, state: 'stopped', noService: { profile: 'sandbox', reason: 'noAddress' } });
    // Once it has an address, nothing is said.
    await ok('settings.patch', { activeProfile: 'local' });
    expect(await ok('watch.state')).toEqual({ folder: watched, state: 'stopped' });
  });

  it('names the built-in test server stopped, in the folder event, and says nothing once it runs again', async () => {
    await ok('localServer.start', {});
    expect(await ok('watch.start')).toEqual({ folder: watched, state: 'watching' });

    const stopping = nextFolder((state) => state.state === 'stopped');
    await ok('localServer.stop');
    expect(await stopping).toEqual({ folder: watched, state: 'stopped', noService: { profile: 'local', reason: 'builtInServerStopped' } });
    expect(await ok('watch.state')).toEqual({ folder: watched, state: 'stopped', noService: { profile: 'local', reason: 'builtInServerStopped' } });

    const starting = nextFolder((state) => state.state === 'watching');
    await ok('localServer.start', {});
    expect(await starting).toEqual({ folder: watched, state: 'watching' });
  }, 60_000);
});
