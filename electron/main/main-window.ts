/**
 * The one window. Closing it hides it: the app keeps watching in the tray until Quit. It only ever shows the app's
 * own page (app://payroll/index.html).
 */
import type { BrowserWindow as BrowserWindowType, BrowserWindowConstructorOptions } from 'electron';
import { APP_INDEX_URL } from './security/app-protocol';

export type MainWindowDeps = {
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindowType;
  options: BrowserWindowConstructorOptions;
  /** True once the clerk chose Quit: then closing really closes. */
  isQuitting(): boolean;
  onShown(): void;
};

export function createMainWindow(deps: MainWindowDeps, show: boolean): BrowserWindowType {
  const window = new deps.BrowserWindow(deps.options);
  window.on('close', (event) => {
    if (deps.isQuitting()) return;
    event.preventDefault();
    window.hide();
  });
  window.once('ready-to-show', () => {
    if (show) window.show();
  });
  window.on('show', () => deps.onShown());
  window.on('focus', () => deps.onShown());
  void window.loadURL(APP_INDEX_URL);
  return window;
}
