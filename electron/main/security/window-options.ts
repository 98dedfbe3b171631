/** The main window's options: Electron's security checklist items that live in webPreferences. */
import type { BrowserWindowConstructorOptions } from 'electron';

export type WindowOptionsInput = { preloadPath: string; iconPath?: string; devTools: boolean };

export function mainWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    width: 1180,
    height: 780,
    minWidth: 720,
    minHeight: 480,
    title: 'Payroll Uploader',
    show: false,
    ...(input.iconPath ? { icon: input.iconPath } : {}),
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: input.devTools,
    },
  };
}
