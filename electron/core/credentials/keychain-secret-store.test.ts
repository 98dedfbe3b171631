import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKeyring, type KeyringHandle } from '../../../test/helpers/keyring';
import { KeychainSecretStore } from './keychain-secret-store';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const run = promisify(execFile);

let keyring: KeyringHandle;
let savedEnv: NodeJS.ProcessEnv;
const store = new KeychainSecretStore();

beforeAll(async () => {
  keyring = await startKeyring();
  savedEnv = { ...process.env };
  // Before the first keychain call: the library keeps its D-Bus connection for the life of the process.
  Object.assign(process.env, keyring.env);
});
afterAll(async () => {
  process.env = savedEnv;
  await keyring?.stop();
});

describe('KeychainSecretStore on a real gnome-keyring', () => {
  it('reports itself available', async () => {
    expect(await store.status()).toEqual({ available: true });
  });

  it('sets, gets and deletes a secret', async () => {
    await store.set('local', 'acme', 'first-secret');
    expect(await store.get('local', 'acme')).toBe('first-secret');
    await store.set('local', 'acme', 'second-secret');
    expect(await store.get('local', 'acme')).toBe('second-secret');
    expect(await store.delete('local', 'acme')).toBe(true);
    expect(await store.get('local', 'acme')).toBeUndefined();
    expect(await store.delete('local', 'acme')).toBe(false);
  });

  it('keeps profiles and client ids apart', async () => {
    await store.set('sandbox', 'acme', 'sandbox-secret');
    await store.set('production', 'acme', 'production-secret');
    await store.set('sandbox', 'other', 'other-secret');
    expect(await store.get('sandbox', 'acme')).toBe('sandbox-secret');
    expect(await store.get('production', 'acme')).toBe('production-secret');
    expect(await store.get('sandbox', 'other')).toBe('other-secret');
    expect(await store.get('local', 'acme')).toBeUndefined();
    expect(await store.delete('sandbox', 'acme')).toBe(true);
    expect(await store.get('production', 'acme')).toBe('production-secret');
  });

  it('gives undefined for a missing entry', async () => {
    expect(await store.get('production', 'nobody')).toBeUndefined();
  });

  it('refuses bad arguments with a clear error', async () => {
    await expect(store.get('local', '')).rejects.toThrow('client id must not be empty');
    await expect(store.set('local', 'acme', '')).rejects.toThrow('client secret must not be empty');
    await expect(store.get('staging' as 'local', 'acme')).rejects.toThrow(/Unknown profile "staging"/);
  });
});

describe('KeychainSecretStore without a keychain', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'no-keychain-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // A child process: this worker already holds a live connection to the test keyring.
  async function probe(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
    const script = path.join(dir, 'probe.mts');
    await writeFile(
      script,
      `import { KeychainSecretStore, KeychainUnavailableError } from ${JSON.stringify(path.join(here, 'index'))};
const store = new KeychainSecretStore();
const out: Record<string, unknown> = { status: await store.status() };
for (const [name, call] of [['get', () => store.get('local', 'acme')], ['set', () => store.set('local', 'acme', 'never-shown-secret')]] as const) {
  try { await call(); out[name] = 'succeeded'; }
  catch (error) { out[name] = { unavailable: error instanceof KeychainUnavailableError, locked: (error as Error).name === 'KeychainLockedError', message: (error as Error).message }; }
}
process.stdout.write(JSON.stringify(out));
`,
    );
    const { stdout } = await run(path.join(root, 'node_modules/.bin/tsx'), [script], { env, cwd: root });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  it.each([
    ['points nowhere', { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' }],
    ['is not set', {}],
  ])('throws KeychainUnavailableError with a fix when the session bus %s', async (_label, extra) => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, ...extra };
    const out = await probe(env);
    for (const call of ['get', 'set'] as const) {
      const result = out[call] as { unavailable: boolean; message: string };
      expect(result.unavailable).toBe(true);
      expect(result.message).toMatch(/^The system keychain is not available, so the client secret can be neither saved nor read\. Sign in to the desktop/);
      expect(result.message).toMatch(/install and unlock gnome-keyring/);
      expect(result.message).toMatch(/D-Bus session/);
      expect(result.message).toMatch(/PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET/);
      expect(result.message).not.toContain('never-shown-secret');
    }
    expect(out.status).toMatchObject({ available: false, reason: expect.stringMatching(/not available/) as unknown });
  });

  it('reports a locked keyring as locked, with how to unlock it, whether or not an entry is there', async () => {
    const locked = await startKeyring();
    try {
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...locked.env };
      const open = await probe(env);
      expect(open).toMatchObject({ status: { available: true }, set: 'succeeded' });
      await locked.lock();
      const out = await probe(env);
      // A search for a missing entry needs no unlocking: the status asks the keyring itself.
      const status = out.status as { available: boolean; reason: string };
      expect(status.available).toBe(false);
      expect(status.reason).toMatch(/^The system keychain is locked, so the client secret can be neither saved nor read\. Unlock the login keyring/);
      expect(status.reason).toMatch(/PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET/);
      // The entry stored while it was open: reading and writing it need the unlock that was not given.
      for (const call of ['get', 'set'] as const) {
        const result = out[call] as { unavailable: boolean; locked: boolean; message: string };
        expect(result).toMatchObject({ unavailable: true, locked: true });
        expect(result.message).toMatch(/^The system keychain is locked/);
        expect(result.message).not.toContain('never-shown-secret');
      }
    } finally {
      await locked.stop();
    }
  });
});
