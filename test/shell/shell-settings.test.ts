/**
 * The shell's electron-store and the engine's conf store on one settings.json: each sees the other's changes, both
 * hold them to the same schema, and start at login follows the setting.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSettingsStore, SettingsFileError, SettingsValidationError } from '../../electron/core/settings';
import { applyLoginItem, HIDDEN_ARG } from '../../electron/main/lifecycle/login-item';
import { openShellSettings } from '../../electron/main/settings/shell-settings';
import { electronStandIn } from './electron-stand-in';

vi.mock('electron', async () => {
  const { electronStandIn: standIn } = await import('./electron-stand-in');
  return { ...standIn, default: standIn };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'shell-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('shell settings (electron-store) and engine settings (conf)', () => {
  it('share one file in one format', async () => {
    const shell = openShellSettings(dir);
    const engine = createSettingsStore({ cwd: dir });
    expect(shell.store.path).toBe(path.join(dir, 'settings.json'));
    expect(shell.store.path).toBe(engine.path);
    shell.store.update({ startAtLogin: true });
    expect(engine.get().startAtLogin).toBe(true);
    engine.update({ watchedFolder: '/srv/exports', concurrency: 3 });
    expect(shell.store.get()).toMatchObject({ watchedFolder: '/srv/exports', concurrency: 3, startAtLogin: true });
    expect(JSON.parse(await readFile(shell.store.path, 'utf8'))).toEqual({ startAtLogin: true, watchedFolder: '/srv/exports', concurrency: 3 });
  });

  it('hears a change the engine saved', async () => {
    await writeFile(path.join(dir, 'settings.json'), '{"concurrency": 2}\n');
    const shell = openShellSettings(dir);
    const changed = vi.fn();
    shell.onChange(changed);
    const engine = createSettingsStore({ cwd: dir });
    // On Linux the watcher polls the file's stat, and its first look is asynchronous: a save made before that
    // look becomes its starting point and is never heard. The engine saves again until the shell hears one.
    await vi.waitFor(() => {
      if (changed.mock.calls.length === 0) engine.update({ startAtLogin: true });
      expect(changed).toHaveBeenCalled();
    }, { timeout: 20_000, interval: 500 });
    expect(shell.store.get().startAtLogin).toBe(true);
  });

  it('holds the shell to the same schema, and reports a broken file instead of resetting it', async () => {
    const shell = openShellSettings(dir);
    expect(() => shell.store.update({ startAtLogin: 'yes' as unknown as boolean })).toThrow(SettingsValidationError);
    await writeFile(path.join(dir, 'settings.json'), '{"startAtLogin": ');
    expect(() => openShellSettings(dir)).toThrow(SettingsFileError);
    expect(await readFile(path.join(dir, 'settings.json'), 'utf8')).toBe('{"startAtLogin": ');
  });
});

describe('start at login', () => {
  it('registers a hidden start on Windows and macOS, only when it changes', () => {
    electronStandIn.app.loginItemCalls.length = 0;
    applyLoginItem(electronStandIn.app as never, true, 'win32');
    applyLoginItem(electronStandIn.app as never, true, 'win32');
    applyLoginItem(electronStandIn.app as never, false, 'darwin');
    expect(electronStandIn.app.loginItemCalls).toEqual([
      { openAtLogin: true, openAsHidden: true, args: [HIDDEN_ARG] },
      { openAtLogin: false, openAsHidden: true, args: [HIDDEN_ARG] },
    ]);
  });

  it('does nothing on Linux, where Electron has no login items', () => {
    electronStandIn.app.loginItemCalls.length = 0;
    applyLoginItem(electronStandIn.app as never, true, 'linux');
    expect(electronStandIn.app.loginItemCalls).toEqual([]);
  });
});
