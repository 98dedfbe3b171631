/**
 * The shell's view of the settings: electron-store on the same settings.json the engine opens with conf (same
 * options, same schema), watched so a change the engine saves (settings.patch from the screens) reaches the shell.
 */
import ElectronStore from 'electron-store';
import { createSettingsStore, openSettingsBacking, type SettingsStore } from '../../core/settings';

export type ShellSettings = {
  store: SettingsStore;
  /** Called after any change of the file, by this process or another; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
};

export function openShellSettings(dataDir: string): ShellSettings {
  const backing = openSettingsBacking(dataDir, ({ configName, ...options }) =>
    // electron-store names the file with `name` (it overwrites conf's configName with it).
    new ElectronStore<Record<string, unknown>>({ ...options, name: configName, watch: true }),
  );
  return {
    store: createSettingsStore({ backing }),
    onChange: (listener) => backing.onDidAnyChange(() => listener()),
  };
}
