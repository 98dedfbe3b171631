/**
 * The shell's electron-store and the engine's conf store on one settings.json: each sees the other's changes, both
 * hold them to the same schema, and start at login follows the setting.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSettingsStore, SettingsFileError, SettingsValidationError } from '../../electron/core/settings';
import { applyLoginItem, AUTOSTART_FILE, HIDDEN_ARG, linuxAutostart } from '../../electron/main/lifecycle/login-item';
import { openShellSettings } from '../../electron/main/settings/shell-settings';
import { electronStandIn } from './electron-stand-in';

const execFileAsync = promisify(execFile);

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

  it('on Linux writes its own XDG autostart entry, only when it changes, and removes only that one', async () => {
    electronStandIn.app.loginItemCalls.length = 0;
    const autostart = { dir: path.join(dir, 'config', 'autostart'), exec: '/opt/Payroll Uploader/payroll-uploader' };
    const entryPath = path.join(autostart.dir, AUTOSTART_FILE);
    applyLoginItem(electronStandIn.app as never, true, 'linux', () => autostart);
    const entry = await readFile(entryPath, 'utf8');
    expect(entry).toContain('Exec="/opt/Payroll Uploader/payroll-uploader" --hidden\n');
    expect(entry.startsWith('[Desktop Entry]\nType=Application\n')).toBe(true);
    // Set again: the file is not written again.
    const written = (await stat(entryPath)).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    applyLoginItem(electronStandIn.app as never, true, 'linux', () => autostart);
    expect((await stat(entryPath)).mtimeMs).toBe(written);
    // Turned off: its entry goes, the clerk's own entries stay.
    await writeFile(path.join(autostart.dir, 'mail.desktop'), '[Desktop Entry]\n');
    applyLoginItem(electronStandIn.app as never, false, 'linux', () => autostart);
    expect(await readdir(autostart.dir)).toEqual(['mail.desktop']);
    applyLoginItem(electronStandIn.app as never, false, 'linux', () => autostart);
    expect(electronStandIn.app.loginItemCalls).toEqual([]);
  });

  it('on Linux starts the app with --hidden when the desktop reads the entry (GLib\'s own parser, through gio launch)', async () => {
    // A path with every character the Exec line must escape.
    const folder = path.join(dir, 'Payroll Uploader $HOME `id` "q" back\\slash');
    await mkdir(folder, { recursive: true });
    const program = path.join(folder, 'payroll-uploader');
    const argvFile = path.join(dir, 'argv.txt');
    await writeFile(program, `#!/bin/sh\nprintf '%s\\n' "$0" "$@" > '${argvFile}'\n`, { mode: 0o755 });
    const autostart = { dir: path.join(dir, 'autostart'), exec: program };
    applyLoginItem(electronStandIn.app as never, true, 'linux', () => autostart);
    await execFileAsync('gio', ['launch', path.join(autostart.dir, AUTOSTART_FILE)]);
    // gio returns once it has started the program, which then writes its arguments: on a loaded machine that can take
    // seconds.
    await vi.waitFor(async () => expect(await readFile(argvFile, 'utf8')).toBe(`${program}\n${HIDDEN_ARG}\n`), { timeout: 30_000, interval: 100 });
  });

  it('on Linux refuses a path the entry cannot name, with a message saying why', () => {
    const autostart = { dir: path.join(dir, 'autostart'), exec: '/opt/100%/payroll-uploader' };
    expect(() => applyLoginItem(electronStandIn.app as never, true, 'linux', () => autostart)).toThrow(/% sign or a control character/);
  });

  it('on Linux names the AppImage itself, in the XDG config folder', () => {
    expect(linuxAutostart({ XDG_CONFIG_HOME: '/home/c/.cfg', APPIMAGE: '/home/c/Apps/Payroll.AppImage' }, '/tmp/.mount_x/payroll-uploader'))
      .toEqual({ dir: '/home/c/.cfg/autostart', exec: '/home/c/Apps/Payroll.AppImage' });
    expect(linuxAutostart({ XDG_CONFIG_HOME: 'relative' }, '/opt/Payroll Uploader/payroll-uploader'))
      .toEqual({ dir: path.join(os.homedir(), '.config', 'autostart'), exec: '/opt/Payroll Uploader/payroll-uploader' });
  });
});
