/** Finds the client credentials of a profile: environment variables first (headless), then settings + keychain. */
import { inspect } from 'node:util';
import type { ProfileName, Settings } from '../../../shared/settings.schema';
import { MissingCredentialsError } from './credential-errors';
import type { SecretStore } from './secret-store';

export const CLIENT_ID_ENV = 'PAYROLL_CLIENT_ID';
export const CLIENT_SECRET_ENV = 'PAYROLL_CLIENT_SECRET';

export type CredentialsSource = 'env' | 'keychain';

const MASK = '***';

/**
 * A client id and secret. The secret sits in a private field behind a getter, so JSON, util.inspect,
 * String() and object spread never show it.
 */
export class ClientCredentials {
  readonly #secret: string;
  constructor(
    readonly clientId: string,
    secret: string,
    readonly source: CredentialsSource,
  ) {
    this.#secret = secret;
  }

  get clientSecret(): string {
    return this.#secret;
  }

  toJSON(): { clientId: string; clientSecret: string; source: CredentialsSource } {
    return { clientId: this.clientId, clientSecret: MASK, source: this.source };
  }

  toString(): string {
    return `ClientCredentials(${this.clientId}, ${MASK}, ${this.source})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

export type ResolveCredentialsOptions = {
  profile: ProfileName;
  settings: Settings;
  store: SecretStore;
  /** Defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>;
};

/**
 * The client id that `resolveCredentials` would use now, without asking the keychain: PAYROLL_CLIENT_ID when both
 * variables are set, else the profile's; undefined when there is none. Uploads are pinned to it.
 */
export function clientIdOf(options: Omit<ResolveCredentialsOptions, 'store'>): string | undefined {
  const { profile, settings, env = process.env } = options;
  const envId = env[CLIENT_ID_ENV] || undefined;
  if (envId && env[CLIENT_SECRET_ENV]) return envId;
  return settings.profiles[profile].clientId || undefined;
}

/**
 * One of PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET set without the other: nothing is sent while it is so (what
 * resolveCredentials throws, and `credentials status` says); undefined when both or neither are set.
 */
export function halfSetEnvironment(profile: ProfileName, env: Readonly<Record<string, string | undefined>> = process.env): MissingCredentialsError | undefined {
  const envId = env[CLIENT_ID_ENV] || undefined;
  const envSecret = env[CLIENT_SECRET_ENV] || undefined;
  if (Boolean(envId) === Boolean(envSecret)) return undefined;
  const [set, unset] = envId ? [CLIENT_ID_ENV, CLIENT_SECRET_ENV] : [CLIENT_SECRET_ENV, CLIENT_ID_ENV];
  return new MissingCredentialsError(profile, `${set} is set but ${unset} is not.`, 'env');
}

/**
 * PAYROLL_CLIENT_ID + PAYROLL_CLIENT_SECRET win; else the profile's client id and the keychain's secret.
 * Throws MissingCredentialsError when neither gives both, and KeychainUnavailableError from the store.
 */
export async function resolveCredentials(options: ResolveCredentialsOptions): Promise<ClientCredentials> {
  const { profile, settings, store, env = process.env } = options;
  const envId = env[CLIENT_ID_ENV] || undefined;
  const envSecret = env[CLIENT_SECRET_ENV] || undefined;
  if (envId && envSecret) return new ClientCredentials(envId, envSecret, 'env');
  const halfSet = halfSetEnvironment(profile, env);
  if (halfSet) throw halfSet;

  const clientId = settings.profiles[profile].clientId;
  if (!clientId) throw new MissingCredentialsError(profile, `No client id is set for the ${profile} profile.`);
  const secret = await store.get(profile, clientId);
  if (!secret) {
    throw new MissingCredentialsError(profile, `No client secret for client "${clientId}" of the ${profile} profile in the keychain.`);
  }
  return new ClientCredentials(clientId, secret, 'keychain');
}
