/**
 * One run's choices laid over the saved settings without saving them: the headless command's `--env`, `--base-url`
 * and folder argument. Updates go to the saved settings; the overlay stays on top of what they return.
 */
import type { ProfileName, Settings } from '../../../shared/settings.schema';
import { requireBaseUrl } from './base-url';
import type { SettingsStore } from './settings-store';

export type SettingsOverlay = {
  /** The profile this run uses (the saved active profile is not changed). */
  profile?: ProfileName;
  /** The base URL of that profile for this run (checked like a saved one: SettingsValidationError). */
  baseUrl?: string;
  watchedFolder?: string;
};

export function overlaySettings(store: SettingsStore, overlay: SettingsOverlay): SettingsStore {
  const profileOf = (saved: Settings): ProfileName => overlay.profile ?? saved.activeProfile;
  // Checked once, now, not by some later step. The command line checks its --base-url before, to say it as a wrong
  // flag (exit code 2); here a bad one is still refused (SettingsValidationError) for any other caller.
  const baseUrl = overlay.baseUrl === undefined ? undefined : requireBaseUrl(store.get(), profileOf(store.get()), overlay.baseUrl);
  const apply = (saved: Settings): Settings => {
    const profile = profileOf(saved);
    return {
      ...saved,
      activeProfile: profile,
      ...(overlay.watchedFolder !== undefined ? { watchedFolder: overlay.watchedFolder } : {}),
      ...(baseUrl !== undefined ? { profiles: { ...saved.profiles, [profile]: { ...saved.profiles[profile], baseUrl } } } : {}),
    };
  };
  return {
    path: store.path,
    get: () => apply(store.get()),
    update: (patch) => apply(store.update(patch)),
  };
}
