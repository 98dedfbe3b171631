/** Typed errors of the credentials service. None of them ever carries a secret. */
import type { CredentialsSource } from './resolve-credentials';

const HEADLESS_HINT = 'set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET instead';

/** What to do, the clerk's way first (a desktop session, IT), then a headless machine's. */
function platformHint(platform: NodeJS.Platform): string {
  if (platform === 'linux') {
    return (
      'Sign in to the desktop so that its keyring is unlocked, or ask your IT support to install and unlock ' +
      'gnome-keyring (or another Secret Service keyring). On a machine without a desktop, run inside a D-Bus session ' +
      `(for example with dbus-run-session) with an unlocked keyring, or ${HEADLESS_HINT}.`
    );
  }
  return `Unlock the system keychain for this user (signing in again usually does), or ${HEADLESS_HINT}.`;
}

/** How to unlock it, the clerk's way first, then a headless machine's. */
function unlockHint(platform: NodeJS.Platform): string {
  if (platform === 'linux') {
    return (
      'Unlock the login keyring: sign out of the desktop and sign in again, or open "Passwords and Keys" and unlock ' +
      '"Login" with your login password (ask your IT support if it does not open). On a machine without a desktop, ' +
      `unlock the keyring of its D-Bus session, or ${HEADLESS_HINT}.`
    );
  }
  return platformHint(platform);
}

/** The OS keychain failed for a reason other than being unreachable (e.g. an ambiguous entry). */
export class KeychainError extends Error {
  override readonly name: string = 'KeychainError';
}

/** There is no usable OS keychain (no Secret Service, no D-Bus session, locked store). */
export class KeychainUnavailableError extends KeychainError {
  override readonly name: string = 'KeychainUnavailableError';
  constructor(
    readonly reason: string,
    platform: NodeJS.Platform = process.platform,
    what = `The system keychain is not available, so the client secret can be neither saved nor read. ${platformHint(platform)}`,
  ) {
    super(`${what} (Cause: ${reason})`);
  }
}

/** The keychain is there but locked (a login that did not unlock it, a dismissed unlock prompt). */
export class KeychainLockedError extends KeychainUnavailableError {
  override readonly name = 'KeychainLockedError';
  constructor(reason: string, platform: NodeJS.Platform = process.platform) {
    super(reason, platform, `The system keychain is locked, so the client secret can be neither saved nor read. ${unlockHint(platform)}`);
  }
}

/**
 * What to do about a client ID and secret taken from PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET that the service does
 * not accept, or about one of the two set without the other. They win over the ones saved in Settings or by
 * `credentials set` (resolve-credentials.ts), so saving others there changes nothing while either is set; and the app
 * or command reads them when it starts, so it must be started again. With no full stop at the end: said after a colon
 * ("No file is uploaded until they are right: set …") or as a sentence of its own.
 */
export function environmentFixWords(profile: string | undefined): string {
  return 'set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET to the client ID and secret your service provider gave you, '
    + 'or remove both so that the ones saved in Settings (or by '
    + `\`payroll-uploader credentials set${profile ? ` --env ${profile}` : ''}\`) are used, then start the app or the `
    + 'uploader again: while either variable is set, what is saved in Settings is not used';
}

const capitalized = (words: string): string => words.charAt(0).toUpperCase() + words.slice(1);

/** No client id or secret could be found for the profile. */
export class MissingCredentialsError extends Error {
  override readonly name = 'MissingCredentialsError';
  constructor(
    readonly profile: string,
    /** What is missing, without what to do ("No client id is set for the sandbox profile."). */
    readonly detail: string,
    /**
     * 'env': the environment variables are what is wrong (one set without the other): only they can mend it, so the
     * words name them, not Settings.
     */
    readonly source: CredentialsSource = 'keychain',
  ) {
    // The desktop app and the command line share this message: the clerk's way first, the command line's after.
    super(source === 'env'
      ? `${detail} ${capitalized(environmentFixWords(profile))}.`
      : `${detail} Enter them in the app's Settings; on the command line run \`payroll-uploader credentials set --env ${profile}\` ` +
        'or set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET.');
  }
}
