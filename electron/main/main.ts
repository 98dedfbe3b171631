/**
 * Electron's entry (built to dist/main/main.js). Before the app is ready: the app:// scheme, the sandbox for every
 * renderer, and one instance per user. Quitting waits for the engine to close its journal.
 */
import { app, protocol } from 'electron';
import { appDataDir } from '../lib/app-data';
import { appPaths } from './app-paths';
import { startDesktopApp, type DesktopApp } from './desktop-app';
import { claimSingleInstance } from './lifecycle/single-instance';
import { HIDDEN_ARG } from './lifecycle/login-item';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES } from './security/app-protocol';

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
app.enableSandbox();

let desktop: DesktopApp | undefined;

if (!claimSingleInstance(app, () => desktop?.showWindow())) {
  app.quit();
} else {
  void app.whenReady().then(() => {
    desktop = startDesktopApp({
      paths: appPaths(app.getAppPath()),
      dataDir: appDataDir(),
      startHidden: process.argv.includes(HIDDEN_ARG),
    });
  });
  // Closing the window keeps the app in the tray; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => desktop?.showWindow());
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed || !desktop) return;
    event.preventDefault();
    void desktop.shutdown().finally(() => {
      closed = true;
      app.quit();
    });
  });
}
