/** SecretStore on the OS keychain via @napi-rs/keyring: one entry per profile and client id. */
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import { PROFILE_NAMES, type ProfileName } from '../../../shared/settings.schema';
import { KeychainError, KeychainLockedError, KeychainUnavailableError } from './credential-errors';
import { defaultKeyringLocked } from './secret-service-lock';
import type { SecretStore, SecretStoreStatus } from './secret-store';

export const KEYCHAIN_SERVICE_PREFIX = 'payroll-uploader';

/** The keychain service name of a profile; the account is the client id. */
export function keychainService(profile: ProfileName): string {
  return `${KEYCHAIN_SERVICE_PREFIX}:${profile}`;
}

// On Linux the library would otherwise fall back to the kernel keyring, which forgets secrets at logout
// or reboot; a missing Secret Service must be reported, not papered over.
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

// keyring-rs: PlatformFailure ("Platform failure: ...") and NoStorageAccess ("Couldn't access platform storage").
const UNAVAILABLE = /platform failure|couldn't access platform storage|dbus|secret service|\blocked\b/i;
// A locked Secret Service: its unlock prompt was dismissed (or none could be shown), or it answered IsLocked
// ("object is locked"). Whole words only: D-Bus's no-reply text says the bus policy may have "blocked the reply".
const LOCKED = /\bunlock\b|\blocked\b/i;
// D-Bus's NoReply: the Secret Service took the call and never answered (a hung keyring daemon, a bus that drops
// replies). Unlocking does not help; the keyring service must be made to answer again.
const NO_REPLY = /did not receive a reply|NoReply/i;

/** What to do about a keychain that does not answer, the clerk's way first, then a headless machine's. */
function noReplyWords(platform: NodeJS.Platform): string {
  const fix = platform === 'linux'
    ? 'Its keyring service seems stuck: sign out of the desktop and sign in again, or ask your IT support to restart '
      + 'gnome-keyring-daemon (or the Secret Service keyring in use). On a machine without a desktop, restart the keyring '
      + 'of its D-Bus session, or set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET instead.'
    : 'Sign out and in again, or restart the computer, or set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET instead.';
  return `The system keychain does not answer (it was asked, and no reply came), so the client secret can be neither saved nor read. ${fix}`;
}

function checkArgs(profile: ProfileName, clientId: string): void {
  if (!(PROFILE_NAMES as readonly string[]).includes(profile)) {
    throw new TypeError(`Unknown profile "${String(profile)}": expected one of ${PROFILE_NAMES.join(', ')}`);
  }
  if (typeof clientId !== 'string' || clientId.length === 0) throw new TypeError('The client id must not be empty');
}

function translate(error: unknown, secret?: string): KeychainError {
  let message = error instanceof Error ? error.message : String(error);
  // Belt and braces: no library message is known to echo the secret, and none may ever pass it on.
  if (secret) message = message.split(secret).join('***');
  if (NO_REPLY.test(message)) return new KeychainUnavailableError(message, process.platform, noReplyWords(process.platform));
  if (LOCKED.test(message)) return new KeychainLockedError(message);
  return UNAVAILABLE.test(message) ? new KeychainUnavailableError(message) : new KeychainError(`Keychain error: ${message}`);
}

// Opening an entry pinned to the Secret Service already connects, so it can throw: call it inside try.
function openEntry(profile: ProfileName, clientId: string): AsyncEntry {
  return new AsyncEntry(keychainService(profile), clientId, ENTRY_OPTIONS);
}

export class KeychainSecretStore implements SecretStore {
  async get(profile: ProfileName, clientId: string): Promise<string | undefined> {
    checkArgs(profile, clientId);
    try {
      return (await openEntry(profile, clientId).getPassword()) ?? undefined;
    } catch (error) {
      throw translate(error);
    }
  }

  async set(profile: ProfileName, clientId: string, secret: string): Promise<void> {
    checkArgs(profile, clientId);
    if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('The client secret must not be empty');
    try {
      await openEntry(profile, clientId).setPassword(secret);
    } catch (error) {
      throw translate(error, secret);
    }
  }

  async delete(profile: ProfileName, clientId: string): Promise<boolean> {
    checkArgs(profile, clientId);
    try {
      return await openEntry(profile, clientId).deleteCredential();
    } catch (error) {
      throw translate(error);
    }
  }

  /**
   * Reads an entry that never exists, which needs a reachable keychain and changes nothing. A locked Secret Service
   * answers that without unlocking, so on Linux the default keyring's lock is asked for as well.
   */
  async status(): Promise<SecretStoreStatus> {
    try {
      await new AsyncEntry(`${KEYCHAIN_SERVICE_PREFIX}:status-probe`, 'probe', ENTRY_OPTIONS).getPassword();
    } catch (error) {
      return { available: false, reason: translate(error).message };
    }
    if (process.platform === 'linux' && (await defaultKeyringLocked()) === true) {
      return { available: false, reason: new KeychainLockedError('the Secret Service says the default keyring is locked').message };
    }
    return { available: true };
  }
}
