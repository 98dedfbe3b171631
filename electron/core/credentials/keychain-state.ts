/** Whether a profile's secret is in the keychain, or why the keychain cannot tell: the same for the app and the CLI. */
import type { ProfileName } from '../../../shared/settings.schema';
import { describeError } from '../../lib/fs-errors';
import type { SecretStore } from './secret-store';

/** `problem` says, in the clerk's words, why the keychain cannot be used (missing, locked) and what to do. */
export type KeychainState = { stored: boolean; problem?: string };

export async function readKeychainState(store: SecretStore, profile: ProfileName, clientId: string | undefined): Promise<KeychainState> {
  // Asked first even when a client id is set: a locked keychain finds no entry without unlocking, so reading the
  // entry alone would answer "not stored" instead of "locked".
  const status = await store.status();
  if (!status.available) return { stored: false, problem: status.reason };
  if (!clientId) return { stored: false };
  try {
    return { stored: Boolean(await store.get(profile, clientId)) };
  } catch (error) {
    return { stored: false, problem: describeError(error) };
  }
}
