/** The stand-in as an ES module named `electron`, for the built main bundle (see run-built-main.ts). */
import { electronStandIn } from '../electron-stand-in';

// electron-store does `import electron from 'electron'`: the real module has a default export, so this one must too.
// eslint-disable-next-line no-restricted-syntax
export default electronStandIn;
export const {
  app, session, protocol, ipcMain, shell, dialog, utilityProcess, Menu, nativeImage, BrowserWindow, Tray, Notification,
  contextBridge, ipcRenderer,
} = electronStandIn;
