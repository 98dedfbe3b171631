import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startKeyring, type KeyringHandle } from '../../../test/helpers/keyring';
import { createSettingsStore, type SettingsStore } from '../settings/settings-store';
import { MissingCredentialsError } from './credential-errors';
import { KeychainSecretStore } from './keychain-secret-store';
import { resolveCredentials } from './resolve-credentials';
import { forgetCredentials, saveCredentials } from './save-credentials';

const SECRET = 'Sup3r-Secret-Value-8a1f';

let keyring: KeyringHandle;
let savedEnv: NodeJS.ProcessEnv;
let dir: string;
let settings: SettingsStore;
const store = new KeychainSecretStore();

beforeAll(async () => {
  keyring = await startKeyring();
  savedEnv = { ...process.env };
  Object.assign(process.env, keyring.env);
});
afterAll(async () => {
  process.env = savedEnv;
  await keyring?.stop();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'credentials-'));
  settings = createSettingsStore({ cwd: dir });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('resolveCredentials', () => {
  it('takes the secret from the keychain and the client id from settings', async () => {
    await saveCredentials({ profile: 'sandbox', clientId: 'acme', clientSecret: SECRET, store, settings });
    const credentials = await resolveCredentials({ profile: 'sandbox', settings: settings.get(), store, env: {} });
    expect(credentials.clientId).toBe('acme');
    expect(credentials.clientSecret).toBe(SECRET);
    expect(credentials.source).toBe('keychain');
  });

  it('prefers PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET', async () => {
    await saveCredentials({ profile: 'local', clientId: 'acme', clientSecret: SECRET, store, settings });
    const env = { PAYROLL_CLIENT_ID: 'ci-bot', PAYROLL_CLIENT_SECRET: 'ci-secret' };
    const credentials = await resolveCredentials({ profile: 'local', settings: settings.get(), store, env });
    expect([credentials.clientId, credentials.clientSecret, credentials.source]).toEqual(['ci-bot', 'ci-secret', 'env']);
  });

  it('reads process.env when no env is given', async () => {
    process.env.PAYROLL_CLIENT_ID = 'from-process';
    process.env.PAYROLL_CLIENT_SECRET = 'process-secret';
    try {
      const credentials = await resolveCredentials({ profile: 'production', settings: settings.get(), store });
      expect(credentials.source).toBe('env');
      expect(credentials.clientId).toBe('from-process');
    } finally {
      delete process.env.PAYROLL_CLIENT_ID;
      delete process.env.PAYROLL_CLIENT_SECRET;
    }
  });

  it('refuses half of the env pair', async () => {
    const error = await caught(resolveCredentials({ profile: 'local', settings: settings.get(), store, env: { PAYROLL_CLIENT_ID: 'x' } }));
    expect(error).toBeInstanceOf(MissingCredentialsError);
    expect(error.message).toMatch(/PAYROLL_CLIENT_ID is set but PAYROLL_CLIENT_SECRET is not/);
    // Only the variables can mend it (they win over Settings): those are named, and that the app starts again.
    expect((error as MissingCredentialsError).source).toBe('env');
    expect(error.message).toMatch(/\. Set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET to the client ID and secret your service provider gave you, or remove both .* then start the app or the uploader again: while either variable is set, what is saved in Settings is not used\.$/);
    expect(error.message).not.toContain('Enter them in the app\'s Settings');
  });

  it('tells how to fix a profile without client id', async () => {
    const error = await caught(resolveCredentials({ profile: 'production', settings: settings.get(), store, env: {} }));
    expect(error).toBeInstanceOf(MissingCredentialsError);
    // The clerk's way first (the desktop app shows this message too), then the command line's.
    expect(error.message).toMatch(/Enter them in the app's Settings; on the command line run `payroll-uploader credentials set --env production`/);
    expect(error.message).toContain('PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET');
  });

  it('tells how to fix a client id whose secret is not in the keychain', async () => {
    settings.update({ profiles: { sandbox: { clientId: 'ghost' } } });
    const error = await caught(resolveCredentials({ profile: 'sandbox', settings: settings.get(), store, env: {} }));
    expect(error).toBeInstanceOf(MissingCredentialsError);
    expect(error.message).toMatch(/No client secret for client "ghost" of the sandbox profile/);
    expect(error.message).toContain('credentials set --env sandbox');
  });
});

describe('saveCredentials and forgetCredentials', () => {
  it('replaces the previous client and removes its secret', async () => {
    await saveCredentials({ profile: 'sandbox', clientId: 'old', clientSecret: 'old-secret', store, settings });
    await saveCredentials({ profile: 'sandbox', clientId: 'new', clientSecret: SECRET, store, settings });
    expect(settings.get().profiles.sandbox.clientId).toBe('new');
    expect(await store.get('sandbox', 'old')).toBeUndefined();
    expect(await store.get('sandbox', 'new')).toBe(SECRET);
    expect(await forgetCredentials({ profile: 'sandbox', store, settings })).toEqual({ clientId: 'new', secretDeleted: true });
    expect(settings.get().profiles.sandbox.clientId).toBeUndefined();
    expect(await store.get('sandbox', 'new')).toBeUndefined();
    expect(await forgetCredentials({ profile: 'sandbox', store, settings })).toEqual({ secretDeleted: false });
  });

  it('refuses an empty client id before touching the keychain', async () => {
    await expect(saveCredentials({ profile: 'local', clientId: '', clientSecret: SECRET, store, settings })).rejects.toThrow(
      /clientId: must not be empty/,
    );
  });
});

describe('the secret stays secret', () => {
  it('is not in the settings file, nor in any string form of the credentials, nor in errors', async () => {
    await saveCredentials({ profile: 'local', clientId: 'acme', clientSecret: SECRET, store, settings });
    const credentials = await resolveCredentials({ profile: 'local', settings: settings.get(), store, env: {} });
    expect(credentials.clientSecret).toBe(SECRET);

    for (const name of await readdir(dir)) expect(await readFile(path.join(dir, name), 'utf8')).not.toContain(SECRET);
    const forms = [
      JSON.stringify(credentials),
      JSON.stringify({ nested: credentials }),
      inspect(credentials, { showHidden: true, depth: 5 }),
      inspect({ nested: [credentials] }),
      String(credentials),
      `${credentials.toString()}`,
      JSON.stringify({ ...credentials }),
    ];
    for (const form of forms) expect(form).not.toContain(SECRET);
    expect(JSON.parse(JSON.stringify(credentials))).toEqual({ clientId: 'acme', clientSecret: '***', source: 'keychain' });

    const errors = [
      await caught(resolveCredentials({ profile: 'local', settings: settings.get(), store, env: { PAYROLL_CLIENT_SECRET: SECRET } })),
      await caught(saveCredentials({ profile: 'local', clientId: 'x'.repeat(201), clientSecret: SECRET, store, settings })),
      await caught(store.set('local', '', SECRET)),
    ];
    for (const error of errors) {
      expect(error.message).not.toContain(SECRET);
      expect(inspect(error)).not.toContain(SECRET);
    }
  });
});
