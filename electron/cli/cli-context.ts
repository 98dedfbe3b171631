/** What the headless commands share: the settings file, the environment profile, the keychain. */
import { PROFILE_NAMES, type ProfileName } from '../../shared/settings.schema';
import { createApiClient, type ApiClient } from '../core/api';
import { KeychainSecretStore, resolveCredentials } from '../core/credentials';
import { createSettingsStore, requireBaseUrl, type SettingsStore } from '../core/settings';
import { appDataDir } from '../lib/app-data';
import { createLogger } from '../lib/logger';
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

/** An API client for a profile: base URL from --base-url or settings, credentials from env or keychain, proxy from settings. */
export function apiFor(ctx: CliContext, profile: ProfileName, baseUrlOverride?: string, credentials?: () => Promise<{ clientId: string; clientSecret: string }>): ApiClient {
  const settings = ctx.settings.get();
  return createApiClient({
    baseUrl: requireBaseUrl(settings, profile, baseUrlOverride, ctx.settings.path),
    credentials: credentials ?? (() => resolveCredentials({ profile, settings: ctx.settings.get(), store: ctx.secrets })),
    ...(settings.proxy ? { proxy: settings.proxy } : {}),
    logger: createLogger('api'),
  });
}
