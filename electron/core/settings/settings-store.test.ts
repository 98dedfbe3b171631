import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/settings.schema';
import { SettingsFileError, SettingsValidationError } from './settings-errors';
import { SETTINGS_FILE_MAX_BYTES, createSettingsStore, type SettingsBacking } from './settings-store';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'settings-store-'));
  file = path.join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectFileError(content: string, ...wanted: RegExp[]): Promise<void> {
  await writeFile(file, content);
  let caught: unknown;
  try {
    createSettingsStore({ cwd: dir });
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SettingsFileError);
  const error = caught as SettingsFileError;
  expect(error.path).toBe(file);
  expect(error.message).toContain(file);
  for (const pattern of wanted) expect(error.issues.join('\n')).toMatch(pattern);
  expect(await readFile(file, 'utf8')).toBe(content);
}

describe('createSettingsStore', () => {
  it('gives the defaults when there is no file, and writes none', async () => {
    const store = createSettingsStore({ cwd: dir });
    expect(store.path).toBe(file);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(await readdir(dir)).toEqual([]);
  });

  it('round-trips a change through the file and keeps only what the user set', async () => {
    const store = createSettingsStore({ cwd: dir });
    const updated = store.update({
      activeProfile: 'sandbox',
      profiles: { sandbox: { baseUrl: 'https://sandbox.example.com', clientId: 'acme' } },
      fileTypeRules: [{ contains: 'staff', fileType: '1' }],
      preflight: 'block',
    });
    expect(updated.profiles.local.baseUrl).toBe('http://127.0.0.1:8787');
    expect(updated.profiles.sandbox).toEqual({ baseUrl: 'https://sandbox.example.com', clientId: 'acme' });

    expect(await readdir(dir)).toEqual(['settings.json']);
    const reopened = createSettingsStore({ cwd: dir });
    expect(reopened.get()).toEqual(updated);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      activeProfile: 'sandbox',
      profiles: { sandbox: { baseUrl: 'https://sandbox.example.com', clientId: 'acme' } },
      fileTypeRules: [{ contains: 'staff', fileType: '1' }],
      preflight: 'block',
    });
  });

  it('writes the file for its owner only (a proxy password may be in it), whatever the umask', async () => {
    const before = process.umask(0o022);
    try {
      const store = createSettingsStore({ cwd: path.join(dir, 'new-data-folder') });
      store.update({ proxy: 'http://clerk:secret@proxy.example:3128' });
      expect((await stat(store.path)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(store.path))).mode & 0o777).toBe(0o700);
      store.update({ proxy: 'http://clerk:other@proxy.example:3128' });
      expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(before);
    }
  });

  it('merges nested objects, replaces arrays, and removes keys patched to undefined', () => {
    const store = createSettingsStore({ cwd: dir });
    store.update({ profiles: { sandbox: { baseUrl: 'https://s.example.com', clientId: 'a' } }, concurrency: 4 });
    const next = store.update({ profiles: { sandbox: { clientId: undefined } }, concurrency: undefined });
    expect(next.profiles.sandbox).toEqual({ baseUrl: 'https://s.example.com' });
    expect(next.concurrency).toBe(2);
  });

  it('refuses an invalid change, says why, and leaves the file byte-identical', async () => {
    const store = createSettingsStore({ cwd: dir });
    store.update({ stabilityMs: 5000 });
    const before = await readFile(file, 'utf8');
    const bad = {
      stabilityMs: 5,
      profiles: { production: { baseUrl: 'http://payroll.example.com' } },
      surprise: true,
    } as unknown as Parameters<typeof store.update>[0];
    expect(() => store.update(bad)).toThrow(SettingsValidationError);
    try {
      store.update(bad);
    } catch (error) {
      const lines = (error as SettingsValidationError).issues.join('\n');
      expect(lines).toMatch(/stabilityMs: .*100/);
      expect(lines).toMatch(/profiles\.production\.baseUrl: https is required/);
      expect(lines).toMatch(/Unrecognized key: "surprise"/);
    }
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(store.get().stabilityMs).toBe(5000);
  });

  it('refuses a patch that is not an object', () => {
    const store = createSettingsStore({ cwd: dir });
    expect(() => store.update([] as unknown as Parameters<typeof store.update>[0])).toThrow(SettingsValidationError);
  });

  it('keeps a "__proto__" key as data and refuses it', () => {
    const store = createSettingsStore({ cwd: dir });
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as Parameters<typeof store.update>[0];
    expect(() => store.update(patch)).toThrow(/Unrecognized key: "__proto__"/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports corrupt JSON with the path and leaves the file as it is', async () => {
    await expectFileError('{"stabilityMs": 2000,', /not valid JSON/);
  });

  it('reads a file saved with a UTF-8 byte order mark (as older Windows Notepad saves it), and a change keeps it readable', async () => {
    await writeFile(file, '\uFEFF{\n  "concurrency": 3\n}\n');
    const store = createSettingsStore({ cwd: dir });
    expect(store.get().concurrency).toBe(3);
    store.update({ stabilityMs: 2500 });
    expect(createSettingsStore({ cwd: dir }).get()).toMatchObject({ concurrency: 3, stabilityMs: 2500 });
  });

  it('shows what it quotes of the file with control and invisible characters escaped: a byte order mark out of place, NUL bytes', async () => {
    await expectFileError('{"concurrency": \uFEFF3}', /not valid JSON: Unexpected token '\\ufeff', "{"concurrency": \\ufeff3}"/);
    await expectFileError('\0'.repeat(64), /not valid JSON: Unexpected token '\\u0000', "\\u0000\\u0000/);
    await expectFileError(JSON.stringify({ 'colour\u0007\u202e': 'blue' }), /Unrecognized key: "colour\\u0007\\u202e"/);
    let caught: unknown;
    try {
      createSettingsStore({ cwd: dir });
    } catch (error) {
      caught = error;
    }
    for (const raw of ['\0', '\u0007', '\u202e']) expect((caught as Error).message).not.toContain(raw);
  });

  it('refuses a file far bigger than settings take, without reading it whole', async () => {
    await expectFileError(`{"a":"${'x'.repeat(SETTINGS_FILE_MAX_BYTES)}"}`, /it has \d+ bytes, far more than settings take \(at most 1048576\): it is not a settings file/);
  });

  it('refuses a folder where the settings file should be', async () => {
    await mkdir(file);
    expect(() => createSettingsStore({ cwd: dir })).toThrow(`The settings file ${file} is invalid and was left unchanged; fix or remove it:\n  - it is a folder, not a file`);
  });

  it('reports a file that is not a JSON object instead of treating it as empty', async () => {
    await expectFileError('[1, 2]\n', /must hold a JSON object/);
    await expectFileError('null', /must hold a JSON object/);
  });

  it('reports invalid values with zod messages', async () => {
    await expectFileError(
      JSON.stringify({ concurrency: 99, profiles: { sandbox: { baseUrl: 'http://10.1.2.3' } } }),
      /concurrency: .*8/,
      /profiles\.sandbox\.baseUrl: https is required/,
    );
  });

  it('reports unknown keys, also nested ones', async () => {
    await expectFileError(JSON.stringify({ colour: 'blue' }), /Unrecognized key: "colour"/);
    await expectFileError(JSON.stringify({ profiles: { local: { clientSecret: 'x' } } }), /profiles\.local: Unrecognized key: "clientSecret"/);
  });

  it('reports a file broken after opening, on get and on update, without writing', async () => {
    const store = createSettingsStore({ cwd: dir });
    store.update({ concurrency: 3 });
    const broken = '{"concurrency": "three"}';
    await writeFile(file, broken);
    expect(() => store.get()).toThrow(SettingsFileError);
    expect(() => store.update({ concurrency: 4 })).toThrow(SettingsFileError);
    expect(await readFile(file, 'utf8')).toBe(broken);
  });

  it('works on another backing with the same shape', () => {
    let data: Record<string, unknown> = { __internal__: { migrations: { version: '1.0.0' } }, usePolling: true };
    const backing: SettingsBacking = {
      path: '/virtual/settings.json',
      get store() {
        return structuredClone(data);
      },
      set store(value) {
        data = value;
      },
    };
    const store = createSettingsStore({ backing });
    expect(store.get().usePolling).toBe(true);
    store.update({ pollIntervalMs: 500 });
    expect(data).toEqual({ usePolling: true, pollIntervalMs: 500 });
  });
});
