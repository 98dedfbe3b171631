/**
 * Wires the desktop app once Electron is ready: the app:// protocol and session guards, the engine process, the
 * bridge IPC, the window, the tray, notifications and start-at-login. Each piece lives in its own module.
 */
import path from 'node:path';
import {
  app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, protocol, session, shell, Tray, type WebContents,
} from 'electron';
import type { FolderState, JobView, Notice } from '../../shared/bridge';
import { createLogger } from '../lib/logger';
import type { AppPaths } from './app-paths';
import { desktopMethods } from './desktop-methods';
import { spawnEngine } from './engine/spawn-engine';
import { superviseEngine } from './engine/engine-supervisor';
import { registerBridgeIpc, relayEvent } from './ipc/bridge-ipc';
import { applyLoginItem, loginItemSupported } from './lifecycle/login-item';
import { createMainWindow } from './main-window';
import { createNoticeBatcher } from './notifications/notice-batcher';
import { APP_SCHEME, isAppUrl, serveAppRequest } from './security/app-protocol';
import { hardenWebContents } from './security/harden-web-contents';
import { guardSession } from './security/session-guards';
import { mainWindowOptions } from './security/window-options';
import { openShellSettings, type ShellSettings } from './settings/shell-settings';
import { createAppTray } from './tray/app-tray';
import { createTrayTracker } from './tray/tray-state';

export type DesktopAppOptions = { paths: AppPaths; dataDir: string; startHidden: boolean };

export type DesktopApp = { showWindow(): void; shutdown(): Promise<void> };

export function startDesktopApp(options: DesktopAppOptions): DesktopApp {
  const logger = createLogger('desktop');
  const { paths } = options;
  let quitting = false;

  guardSession(session.defaultSession);
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(paths.rendererDir, request));
  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, {
      openExternal: (url) => shell.openExternal(url),
      onRefused: (what, url) => logger.warn(`refused ${what} to ${url.slice(0, 200)}`),
    });
  });

  let settings: ShellSettings | undefined;
  try {
    settings = openShellSettings(options.dataDir);
  } catch (error) {
    // The engine reports a broken settings file to the screens; the shell only loses start-at-login meanwhile.
    logger.error(String(error));
  }
  const startAtLogin = (): boolean | undefined => {
    if (!loginItemSupported()) return undefined;
    try {
      return settings?.store.get().startAtLogin ?? false;
    } catch {
      return undefined;
    }
  };
  const syncLoginItem = (): void => {
    const enabled = startAtLogin();
    try {
      if (enabled !== undefined) applyLoginItem(app, enabled);
    } catch (error) {
      logger.error(`start at login could not be ${enabled ? 'set' : 'removed'}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  syncLoginItem();

  const tracker = createTrayTracker();
  let window: BrowserWindow | undefined;
  const windows = (): WebContents[] => (window && !window.isDestroyed() ? [window.webContents] : []);

  const notifier = createNoticeBatcher({
    show({ title, body }) {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body, icon: path.join(paths.iconsDir, 'icon-256.png') });
      notification.on('click', () => showWindow());
      notification.show();
    },
  });

  const engine = superviseEngine({
    spawn: () => spawnEngine({ enginePath: paths.engine, dataDir: options.dataDir }),
    onTrouble(message) {
      logger.error(message);
      const notice: Notice = { level: 'error', message };
      notifier.notice(notice);
      relayEvent(windows(), 'notice', notice, isAppUrl);
    },
    onReady: () => void resumeOnStart(),
  });

  const refreshTray = (): void => tray.update(tracker.model(), startAtLogin());
  const tray = createAppTray({ Tray, Menu, nativeImage }, paths.iconsDir, {
    open: () => showWindow(),
    watch: (method) => void engine.call(method, {}).then(refreshTrayFromReply),
    setStartAtLogin(enabled) {
      try {
        settings?.store.update({ startAtLogin: enabled });
      } catch (error) {
        logger.error(`start at login was not saved: ${String(error)}`);
      }
      syncLoginItem();
      refreshTray();
    },
    quit: () => app.quit(),
  });
  const refreshTrayFromReply = (reply: Awaited<ReturnType<typeof engine.call>>): void => {
    if (reply.ok) tracker.folder(reply.result as FolderState);
    refreshTray();
  };
  settings?.onChange(() => {
    syncLoginItem();
    refreshTray();
  });

  engine.onEvent((event, payload) => {
    relayEvent(windows(), event, payload, isAppUrl);
    if (event === 'job') {
      tracker.job(payload as JobView);
      notifier.job(payload as JobView);
    } else if (event === 'result') {
      tracker.result(payload as JobView);
      notifier.result(payload as JobView);
    } else if (event === 'folder') tracker.folder(payload as FolderState);
    else if (event === 'notice') {
      tracker.notice(payload as Notice);
      notifier.notice(payload as Notice);
    } else return;
    refreshTray();
  });

  // The desktop app exists to keep watching: a configured folder is watched from the start (and after a restart).
  async function resumeOnStart(): Promise<void> {
    const state = await engine.call('watch.state', {});
    if (state.ok) {
      const folder = state.result as FolderState;
      tracker.folder(folder);
      if (folder.folder && folder.state === 'stopped') refreshTrayFromReply(await engine.call('watch.start', {}));
    }
    const queued = await engine.call('jobs.query', { finished: false, limit: 500 });
    if (queued.ok) for (const job of (queued.result as { items: JobView[] }).items) tracker.job(job);
    refreshTray();
  }

  registerBridgeIpc({
    ipcMain,
    engine,
    desktop: desktopMethods({ dialog, shell, engine, windowOf: (sender) => BrowserWindow.fromWebContents(sender) }),
    logger: logger.child('ipc'),
  });

  function showWindow(): void {
    if (!window || window.isDestroyed()) {
      window = createMainWindow({
        BrowserWindow,
        options: mainWindowOptions({ preloadPath: paths.preload, iconPath: path.join(paths.iconsDir, 'icon-512.png'), devTools: !app.isPackaged }),
        isQuitting: () => quitting,
        onShown: () => {
          tracker.acknowledge();
          refreshTray();
        },
      }, true);
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  if (options.startHidden) refreshTray();
  else showWindow();

  return {
    showWindow,
    async shutdown() {
      quitting = true;
      notifier.flush();
      await engine.stop();
      tray.destroy();
    },
  };
}
