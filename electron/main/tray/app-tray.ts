/** The tray icon: its picture and tooltip follow the state; its menu is rebuilt on every change. */
import path from 'node:path';
import type { Menu as MenuType, NativeImage, Tray as TrayType } from 'electron';
import { trayMenuTemplate, type TrayActions } from './tray-menu';
import type { TrayModel, TrayStatus } from './tray-state';

export type TrayElectron = {
  Tray: new (image: NativeImage) => TrayType;
  Menu: Pick<typeof MenuType, 'buildFromTemplate'>;
  nativeImage: { createFromPath(path: string): NativeImage };
};

export type AppTray = { update(model: TrayModel, startAtLogin: boolean | undefined): void; destroy(): void };

export function trayIconPath(iconsDir: string, status: TrayStatus): string {
  return path.join(iconsDir, `tray-${status}.png`);
}

export function createAppTray(electron: TrayElectron, iconsDir: string, actions: TrayActions): AppTray {
  const images = new Map<TrayStatus, NativeImage>();
  const image = (status: TrayStatus): NativeImage => {
    let found = images.get(status);
    if (!found) images.set(status, (found = electron.nativeImage.createFromPath(trayIconPath(iconsDir, status))));
    return found;
  };
  const tray = new electron.Tray(image('idle'));
  tray.on('click', () => actions.open());
  let shown: TrayStatus = 'idle';
  return {
    update(model, startAtLogin) {
      if (model.status !== shown) tray.setImage(image(model.status));
      shown = model.status;
      tray.setToolTip(`Payroll Uploader: ${model.summary}`);
      tray.setContextMenu(electron.Menu.buildFromTemplate(trayMenuTemplate(model, startAtLogin, actions)));
    },
    destroy: () => tray.destroy(),
  };
}
