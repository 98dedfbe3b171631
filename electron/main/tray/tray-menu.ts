/** The tray's menu for a state: open, pause/resume watching, start at login, quit. */
import type { MenuItemConstructorOptions } from 'electron';
import type { TrayModel } from './tray-state';

export type TrayActions = {
  open(): void;
  watch(action: 'watch.pause' | 'watch.resume' | 'watch.start'): void;
  setStartAtLogin(enabled: boolean): void;
  quit(): void;
};

/** `startAtLogin` undefined: the platform has no login items, so the entry is left out. */
export function trayMenuTemplate(model: TrayModel, startAtLogin: boolean | undefined, actions: TrayActions): MenuItemConstructorOptions[] {
  const { state, folder } = model.folder;
  const watchItem: MenuItemConstructorOptions =
    state === 'paused'
      ? { label: 'Resume watching', click: () => actions.watch('watch.resume') }
      : state === 'watching' || state === 'missing' || state === 'unreadable'
        ? { label: 'Pause watching', click: () => actions.watch('watch.pause') }
        : folder
          ? { label: 'Start watching', click: () => actions.watch('watch.start') }
          : { label: 'Choose a folder to watch in the app', enabled: false };
  return [
    { label: model.summary, enabled: false },
    ...(folder ? [{ label: folder, enabled: false } satisfies MenuItemConstructorOptions] : []),
    { type: 'separator' },
    { label: 'Open Payroll Uploader', click: () => actions.open() },
    watchItem,
    ...(startAtLogin === undefined
      ? []
      : [{ label: 'Start at login', type: 'checkbox', checked: startAtLogin, click: (item) => actions.setStartAtLogin(item.checked) } satisfies MenuItemConstructorOptions]),
    { type: 'separator' },
    { label: 'Quit', click: () => actions.quit() },
  ];
}
