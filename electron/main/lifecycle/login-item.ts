/** Start at login (Windows and macOS; Electron has no login items on Linux): the app opens hidden in the tray. */
import type { App } from 'electron';

/** The argument a login start carries, so the window stays hidden. */
export const HIDDEN_ARG = '--hidden';

export function loginItemSupported(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

export function applyLoginItem(app: Pick<App, 'setLoginItemSettings' | 'getLoginItemSettings'>, enabled: boolean, platform: NodeJS.Platform = process.platform): void {
  if (!loginItemSupported(platform)) return;
  if (app.getLoginItemSettings({ args: [HIDDEN_ARG] }).openAtLogin === enabled) return;
  app.setLoginItemSettings({ openAtLogin: enabled, openAsHidden: true, args: [HIDDEN_ARG] });
}
