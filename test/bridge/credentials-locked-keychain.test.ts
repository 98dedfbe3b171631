/**
 * A locked keychain (a login that did not unlock the keyring) is told as locked wherever the screens ask for
 * credentials, with what to do, whether or not a secret was stored before; a save is refused and nothing reaches the
 * disk. Real session and a real gnome-keyring locked through the Secret Service, through the bridge handlers (whose
 * answers are checked against the contract).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethodName } from '../../shared/bridge';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { callFails, callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

const SECRET = 'locked-keyring-secret-31';
const LOCKED = /^The system keychain is locked, so the client secret can be neither saved nor read\. Unlock the login keyring/;

describe('credentials with a locked keychain', () => {
  let keyring: KeyringHandle;
  let engine: UiEngine;

  const ok = <M extends BridgeMethodName>(method: M, request?: unknown) => callOk(engine, method, request);

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    engine = await startUiEngine({ settings: { activeProfile: 'sandbox' } });
    // Stored while the keyring was open: the sandbox profile has a secret, production has none.
    expect(await ok('credentials.set', { profile: 'sandbox', clientId: 'acme', clientSecret: 'stored-before-the-lock' }))
      .toMatchObject({ stored: true, source: 'keychain' });
    await keyring.lock();
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await keyring?.stop();
  });

  it('says the keychain is locked, and how to unlock it, for a profile with a stored secret', async () => {
    const status = await ok('credentials.status', { profile: 'sandbox' });
    expect(status).toMatchObject({ profile: 'sandbox', stored: false, source: 'none', clientId: 'acme' });
    expect(status.keychainProblem).toMatch(LOCKED);
  });

  it('says so too for a profile with nothing stored, instead of "no secret saved"', async () => {
    const status = await ok('credentials.status', { profile: 'production' });
    expect(status).toMatchObject({ profile: 'production', stored: false, source: 'none' });
    expect(status.keychainProblem).toMatch(LOCKED);
  });

  it('refuses a save with the same words and writes the secret nowhere', async () => {
    const refused = await callFails(engine, 'credentials.set', { profile: 'production', clientId: 'acme', clientSecret: SECRET });
    expect(refused.code).toBe('keychain_unavailable');
    expect(refused.message).toMatch(LOCKED);
    expect(refused.message).not.toContain(SECRET);
    expect((await ok('settings.get')).settings.profiles.production.clientId).toBeUndefined();
    for (const name of await readdir(engine.dataDir, { recursive: true })) {
      const bytes = await readFile(join(engine.dataDir, name)).catch(() => Buffer.alloc(0));
      expect(bytes.includes(SECRET), name).toBe(false);
    }
  });
});
