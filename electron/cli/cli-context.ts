/** What the headless commands share: the settings file, the environment profile, the keychain. */
import { PROFILE_NAMES, type ProfileName } from '../../shared/settings.schema';
import { KeychainSecretStore } from '../core/credentials';
import { createSettingsStore, type SettingsStore } from '../core/settings';
import { appDataDir } from '../lib/app-data';
import { UsageError } from './usage-error';

export type CliContext = { dataDir: string; settings: SettingsStore; secrets: KeychainSecretStore };

export function openCliContext(env: NodeJS.ProcessEnv = process.env): CliContext {
  const dataDir = appDataDir(env);
  return { dataDir, settings: createSettingsStore({ cwd: dataDir }), secrets: new KeychainSecretStore() };
}

/** `--env local|sandbox|production`, else the settings' active profile. */
export function profileOf(value: string | undefined, settings: SettingsStore): ProfileName {
  if (value === undefined) return settings.get().activeProfile;
  if (!(PROFILE_NAMES as readonly string[]).includes(value)) {
    throw new UsageError(`--env must be one of ${PROFILE_NAMES.join(', ')}, not "${value}"`);
  }
  return value as ProfileName;
}

/** node:util parseArgs with its errors turned into usage errors. */
export function usageErrors<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
