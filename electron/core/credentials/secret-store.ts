/** Where client secrets live, per environment profile and client id; callers never know which store it is. */
import type { ProfileName } from '../../../shared/settings.schema';

export type SecretStoreStatus = { available: true } | { available: false; reason: string };

export type SecretStore = {
  /** The secret, or undefined when none is stored. */
  get(profile: ProfileName, clientId: string): Promise<string | undefined>;
  set(profile: ProfileName, clientId: string, secret: string): Promise<void>;
  /** True when a secret was deleted, false when there was none. */
  delete(profile: ProfileName, clientId: string): Promise<boolean>;
  /** Whether the store can be used at all, with the reason (and fix) when not. */
  status(): Promise<SecretStoreStatus>;
};
