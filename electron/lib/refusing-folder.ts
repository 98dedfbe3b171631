/**
 * Which folder refused an operation that was denied for permissions, and whose it is. "EACCES: permission denied,
 * lstat '…/uploaded/2026-11-24/census.csv'" names a file, and a message built on the folder the clerk chose (the
 * watched folder) names one that may be writable; what refused is a folder on the way that this account may not
 * enter or write in, often one another account made (another clerk's `.processing/<owner>` or `uploaded/`). That
 * folder, and the account it belongs to, are what the clerk or an administrator can act on.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';
import { errorPath } from './fs-errors';

const can = (path: string, mode: number): boolean => {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
};

/**
 * For the folder `folder` (which need not exist yet): the first folder on the way to it that this account may not
 * enter, else the deepest existing one when this account may not write in it (where it would be made, or changed);
 * undefined when none refuses. Synchronous: asked once when something failed, never on the way of the work.
 */
export function refusingFolder(folder: string): string | undefined {
  const levels: string[] = [];
  for (let at = resolve(folder); ; at = dirname(at)) {
    levels.unshift(at);
    if (dirname(at) === at) break;
  }
  let deepest: string | undefined;
  for (const at of levels) {
    let isFolder: boolean;
    try {
      isFolder = statSync(at).isDirectory();
    } catch {
      break;
    }
    if (!isFolder) break;
    if (!can(at, constants.X_OK)) return at;
    deepest = at;
  }
  return deepest !== undefined && !can(deepest, constants.W_OK | constants.X_OK) ? deepest : undefined;
}

/**
 * The folder that refused a denied file-system call: of the folders its paths are in (the one a file was made,
 * looked up or moved in, and the one a file was moved to), and of `more` (the folder the call was meant to reach),
 * the first that refuses.
 */
export function refusingFolderOf(error: unknown, more: string[] = []): string | undefined {
  const dest = (error as { dest?: unknown } | undefined)?.dest;
  const path = errorPath(error);
  const folders = [...(path ? [dirname(path)] : []), ...(typeof dest === 'string' ? [dirname(dest)] : []), ...more];
  for (const folder of folders) {
    const refused = refusingFolder(folder);
    if (refused !== undefined) return refused;
  }
  return undefined;
}

/** The name of the account this process runs as; undefined where it cannot be told. */
export function accountName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

/**
 * The name of the account `path` belongs to ("clerk1"), from the computer's list of accounts; "the account with id
 * 1001" when it is not in that list (accounts of a directory service); undefined on Windows (no owner ids) or when
 * the path cannot be looked at.
 */
export function ownerOf(path: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  let uid: number;
  try {
    uid = statSync(path).uid;
  } catch {
    return undefined;
  }
  if (uid === process.getuid?.()) return accountName() ?? `the account with id ${uid}`;
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name && id === String(uid)) return name;
    }
  } catch {
    // No list to read: said by id.
  }
  return `the account with id ${uid}`;
}

/** The name of the group `path` belongs to ("payroll"); undefined when it cannot be told (Windows, a directory service). */
export function groupOf(path: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const gid = String(statSync(path).gid);
    for (const line of readFileSync('/etc/group', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name && id === gid) return name;
    }
  } catch {
    // Not to be told: the words go without the name.
  }
  return undefined;
}
