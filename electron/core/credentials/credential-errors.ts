/** Typed errors of the credentials service. None of them ever carries a secret. */

const HEADLESS_HINT = 'for headless use set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET instead';

function platformHint(platform: NodeJS.Platform): string {
  if (platform === 'linux') {
    return (
      'On Linux, install and unlock gnome-keyring (or another Secret Service provider) and run inside a ' +
      `D-Bus session (DBUS_SESSION_BUS_ADDRESS set, e.g. via dbus-run-session); ${HEADLESS_HINT}.`
    );
  }
  return `Unlock the system keychain for this user; ${HEADLESS_HINT}.`;
}

/** The OS keychain failed for a reason other than being unreachable (e.g. an ambiguous entry). */
export class KeychainError extends Error {
  override readonly name: string = 'KeychainError';
}

/** There is no usable OS keychain (no Secret Service, no D-Bus session, locked store). */
export class KeychainUnavailableError extends KeychainError {
  override readonly name = 'KeychainUnavailableError';
  constructor(
    readonly reason: string,
    platform: NodeJS.Platform = process.platform,
  ) {
    super(`The OS keychain is not available (${reason}). ${platformHint(platform)}`);
  }
}

/** No client id or secret could be found for the profile. */
export class MissingCredentialsError extends Error {
  override readonly name = 'MissingCredentialsError';
  constructor(
    readonly profile: string,
    detail: string,
  ) {
    // The desktop app and the command line share this message: the clerk's way first, the command line's after.
    super(
      `${detail} Enter them in the app's Settings; on the command line run \`payroll-uploader credentials set --env ${profile}\` ` +
        'or set PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET.',
    );
  }
}
