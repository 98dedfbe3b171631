/**
 * Whether the Secret Service keyring that new secrets go to is locked. The keychain library cannot tell: a locked
 * keyring answers its search for an entry that is not there without asking to be unlocked, so only reading and
 * writing a stored secret would find out. The keyring's own `Locked` property says it without prompting or writing;
 * it is read with `dbus-send`, the session bus's own command-line client (part of D-Bus, so present wherever the
 * Secret Service is).
 */
import { execFile } from 'node:child_process';
import { createLogger } from '../../lib/logger';

const log = createLogger('credentials');

// The alias the library stores new entries under (the login keyring on a desktop).
const DEFAULT_COLLECTION = '/org/freedesktop/secrets/aliases/default';
const TIMEOUT_MS = 5_000;

/**
 * True when the default keyring is locked, false when it is open; undefined when there is none yet (the first
 * save makes it) or its state cannot be read (no dbus-send, no session bus), where the library's own answers are
 * all there is to go on.
 */
export function defaultKeyringLocked(env: NodeJS.ProcessEnv = process.env): Promise<boolean | undefined> {
  const args = [
    '--session', '--print-reply', `--reply-timeout=${TIMEOUT_MS}`, '--dest=org.freedesktop.secrets', DEFAULT_COLLECTION,
    'org.freedesktop.DBus.Properties.Get', 'string:org.freedesktop.Secret.Collection', 'string:Locked',
  ];
  return new Promise((resolve) => {
    execFile('dbus-send', args, { env, timeout: TIMEOUT_MS + 1_000 }, (error, stdout, stderr) => {
      // The reply's one value: "   variant       boolean true".
      const value = error ? undefined : /\bvariant\s+boolean\s+(true|false)\b/.exec(stdout)?.[1];
      if (value === undefined) {
        log.debug(`could not read whether the default keyring is locked: ${error ? (stderr.trim() || error.message) : stdout.trim()}`);
        resolve(undefined);
        return;
      }
      resolve(value === 'true');
    });
  });
}
