/** Credentials of each profile as the screens see them: stored or not and where, set, delete, test a connection. */
import { decodeJwt } from 'jose';
import type { CredentialStatus, CredentialTest } from '../../../shared/bridge';
import type { ProfileName } from '../../../shared/settings.schema';
import { CLIENT_ID_ENV, CLIENT_SECRET_ENV, forgetCredentials, readKeychainState, saveCredentials, type SecretStore } from '../credentials';
import type { SettingsStore } from '../settings';
import { signInFailureWords, type ApiClient } from '../api';
import type { AppClient } from './local-server-part';

export type CredentialsPart = {
  status(profile: ProfileName): Promise<CredentialStatus>;
  set(profile: ProfileName, clientId: string, clientSecret: string): Promise<CredentialStatus>;
  delete(profile: ProfileName): Promise<CredentialStatus>;
  /** Gets a token: ok with the granted scopes and the time taken, or the service's answer in words. */
  test(profile: ProfileName): Promise<CredentialTest>;
};

export type CredentialsPartOptions = {
  settings: SettingsStore;
  secrets: SecretStore;
  env: Readonly<Record<string, string | undefined>>;
  /** The embedded local server's app client, while it runs. */
  localClient(): AppClient | undefined;
  /** A fresh client of the profile that does not retry (throws NotConfiguredError without a base URL). */
  probe(profile: ProfileName): ApiClient;
  /** Called after credentials changed: cached API clients hold tokens of the old ones. */
  changed(profile: ProfileName): void;
};

function scopesOf(token: string): string[] {
  try {
    const scope = decodeJwt(token).scope;
    return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
  } catch {
    // Not a JWT: the service does not tell its scopes in the token.
    return [];
  }
}

export function createCredentialsPart(options: CredentialsPartOptions): CredentialsPart {
  const { settings, secrets, env } = options;

  const status = async (profile: ProfileName): Promise<CredentialStatus> => {
    const envId = env[CLIENT_ID_ENV] || undefined;
    if (envId && env[CLIENT_SECRET_ENV]) return { profile, stored: true, source: 'environment', clientId: envId };
    const local = profile === 'local' ? options.localClient() : undefined;
    if (local?.kept) return { profile, stored: true, source: 'keychain', clientId: local.clientId };
    const clientId = settings.get().profiles[profile].clientId;
    const keychain = await readKeychainState(secrets, profile, clientId);
    return {
      profile,
      stored: keychain.stored,
      source: keychain.stored ? 'keychain' : 'none',
      ...(clientId ? { clientId } : {}),
      ...(keychain.problem ? { keychainProblem: keychain.problem } : {}),
    };
  };

  return {
    status,
    async set(profile, clientId, clientSecret) {
      await saveCredentials({ profile, clientId, clientSecret, store: secrets, settings });
      options.changed(profile);
      return status(profile);
    },
    async delete(profile) {
      await forgetCredentials({ profile, store: secrets, settings });
      options.changed(profile);
      return status(profile);
    },
    async test(profile) {
      const client = options.probe(profile);
      const started = performance.now();
      try {
        const token = await client.getToken();
        return { ok: true, scopes: scopesOf(token), ms: Math.round(performance.now() - started) };
      } catch (error) {
        return { ok: false, scopes: [], ms: Math.round(performance.now() - started), message: signInFailureWords(error) };
      } finally {
        client.close();
      }
    },
  };
}
