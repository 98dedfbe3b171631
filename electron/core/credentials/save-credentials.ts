/** Stores a profile's credentials: the secret in the keychain, the client id in settings (never the secret). */
import { profileSchema, type ProfileName } from '../../../shared/settings.schema';
import { createLogger } from '../../lib/logger';
import { SettingsValidationError } from '../settings/settings-errors';
import type { SettingsStore } from '../settings/settings-store';
import type { SecretStore } from './secret-store';

const log = createLogger('credentials');

export type SaveCredentialsOptions = {
  profile: ProfileName;
  clientId: string;
  clientSecret: string;
  store: SecretStore;
  settings: SettingsStore;
};

/**
 * The profile's base URL as it is now, written along: a profile object in the file replaces the default one, so
 * storing only the client id would drop the local profile's default address (http://127.0.0.1:8787).
 */
function keptBaseUrl(settings: SettingsStore, profile: ProfileName): { baseUrl?: string } {
  const baseUrl = settings.get().profiles[profile].baseUrl;
  return baseUrl ? { baseUrl } : {};
}

/**
 * Keychain first, so a keychain failure leaves settings unchanged; a settings file that cannot be written (a read-only
 * disk) then takes the secret back out of the keychain, since a secret no client id in settings names could not be
 * found again, not even by `credentials delete`. The previous client's secret is removed afterwards so the keychain
 * does not collect stale secrets.
 */
export async function saveCredentials(options: SaveCredentialsOptions): Promise<void> {
  const { profile, clientId, clientSecret, store, settings } = options;
  // Checked before the keychain is touched, so a refused client id leaves no orphan secret behind.
  const checked = profileSchema.shape.clientId.safeParse(clientId);
  if (!checked.success) throw new SettingsValidationError(checked.error.issues.map((i) => `clientId: ${i.message}`));
  const previous = settings.get().profiles[profile].clientId;
  // The secret the same client has now, put back if the settings cannot be written.
  const before = previous === clientId ? await store.get(profile, clientId) : undefined;
  await store.set(profile, clientId, clientSecret);
  try {
    settings.update({ profiles: { [profile]: { ...keptBaseUrl(settings, profile), clientId } } });
  } catch (error) {
    try {
      if (before !== undefined) await store.set(profile, clientId, before);
      else await store.delete(profile, clientId);
    } catch (undo) {
      log.warn(`could not take the new secret of client "${clientId}" (${profile}) back out of the keychain: ${(undo as Error).message}`);
    }
    throw error;
  }
  if (previous && previous !== clientId) {
    try {
      await store.delete(profile, previous);
    } catch (error) {
      log.warn(`could not remove the old secret of client "${previous}" (${profile}): ${(error as Error).message}`);
    }
  }
}

/** What forgetCredentials removed: the client id from settings (when one was set), and whether a secret went too. */
export type Forgotten = { clientId?: string; secretDeleted: boolean };

/** Removes the profile's secret from the keychain and its client id from settings. */
export async function forgetCredentials(options: Omit<SaveCredentialsOptions, 'clientId' | 'clientSecret'>): Promise<Forgotten> {
  const { profile, store, settings } = options;
  const clientId = settings.get().profiles[profile].clientId;
  if (!clientId) return { secretDeleted: false };
  const secretDeleted = await store.delete(profile, clientId);
  settings.update({ profiles: { [profile]: { ...keptBaseUrl(settings, profile), clientId: undefined } } });
  return { clientId, secretDeleted };
}
