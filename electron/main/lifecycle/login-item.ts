/**
 * Start at login: the app opens hidden in the tray. Windows and macOS through Electron's login items; Linux, where
 * Electron has none, through an XDG autostart entry (`~/.config/autostart/payroll-uploader.desktop`), which GNOME,
 * KDE, Xfce and the other desktops that follow freedesktop.org start at login.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { App } from 'electron';
import { errorCode } from '../../lib/fs-errors';

/** The argument a login start carries, so the window stays hidden. */
export const HIDDEN_ARG = '--hidden';

/** Linux: where the autostart entry goes and the program it starts. */
export type LinuxAutostart = { dir: string; exec: string };

export const AUTOSTART_FILE = 'payroll-uploader.desktop';

export function loginItemSupported(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' || platform === 'darwin' || platform === 'linux';
}

/**
 * The autostart folder of the XDG base directory spec, and the program to start: an AppImage runs from a new
 * temporary mount each time, so its entry starts the image itself (`APPIMAGE`), not the mounted binary.
 */
export function linuxAutostart(env: NodeJS.ProcessEnv = process.env, execPath: string = process.execPath): LinuxAutostart {
  const config = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return { dir: join(config, 'autostart'), exec: env.APPIMAGE && isAbsolute(env.APPIMAGE) ? env.APPIMAGE : execPath };
}

/**
 * One argument of an Exec line (Desktop Entry spec 1.5): quoted, with `"`, `` ` ``, `$` and `\` escaped by a
 * backslash, then every backslash doubled, as the value is read as a string (`\\` is one backslash) before it is
 * split. A `%` would have to be `%%`, which GLib's check that the program exists does not undo, so GNOME would
 * ignore the entry: such a path is refused, as is one with a control character.
 */
function execArgument(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\u0000-\u001f\u007f%]/.test(value)) {
    throw new Error(`the app's path ${JSON.stringify(value)} has a % sign or a control character, which a login entry cannot name`);
  }
  return `"${value.replace(/["`$\\]/g, (c) => `\\${c}`)}"`.replace(/\\/g, '\\\\');
}

/** The autostart entry that starts `exec` hidden in the tray. */
export function autostartEntry(exec: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Payroll Uploader',
    'Comment=Uploads payroll exports from the watched folder',
    `Exec=${execArgument(exec)} ${HIDDEN_ARG}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

function readIfAny(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes or removes this app's own entry (no other file in the folder is touched); nothing when it is as wanted. */
function applyAutostart(autostart: LinuxAutostart, enabled: boolean): void {
  const path = join(autostart.dir, AUTOSTART_FILE);
  const current = readIfAny(path);
  if (!enabled) {
    if (current !== undefined) rmSync(path, { force: true });
    return;
  }
  const entry = autostartEntry(autostart.exec);
  if (current === entry) return;
  mkdirSync(autostart.dir, { recursive: true, mode: 0o700 });
  // A torn entry is rewritten at the next start, as it differs from what is wanted.
  writeFileSync(path, entry, { mode: 0o644 });
}

/**
 * Registers or removes the login start, only when it differs from what is there. Throws when it cannot be done
 * (a read-only home folder, say); the caller reports that.
 */
export function applyLoginItem(
  app: Pick<App, 'setLoginItemSettings' | 'getLoginItemSettings'>, enabled: boolean,
  platform: NodeJS.Platform = process.platform, autostart: () => LinuxAutostart = linuxAutostart,
): void {
  if (!loginItemSupported(platform)) return;
  if (platform === 'linux') {
    applyAutostart(autostart(), enabled);
    return;
  }
  if (app.getLoginItemSettings({ args: [HIDDEN_ARG] }).openAtLogin === enabled) return;
  app.setLoginItemSettings({ openAtLogin: enabled, openAsHidden: true, args: [HIDDEN_ARG] });
}
