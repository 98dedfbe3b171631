/**
 * Owner-only folders and files for what the app keeps of its own: the uploader's data folder (the settings, which
 * may hold a proxy's password; the journal, with payroll file names and unused upload addresses) and the local
 * server's (its signing keys and the uploaded payroll files). No other user of the computer may read or change them.
 *
 * A folder or file that is already there is made owner-only too: access for others is taken away, the owner's own
 * bits are left as they are (a folder its owner made read-only stays read-only). One that belongs to another user is
 * refused, since that user could read it or put a settings file of theirs in it. Where the file system keeps no
 * modes (a network share, a FAT disk) or cannot be changed, what follows says what is wrong in its own words.
 * Windows keeps access in ACLs, not modes: there the folder under the user's profile is private already.
 */
import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describeError, errorCode } from './fs-errors';
import { printableText } from './printable-name';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const POSIX = process.platform !== 'win32';

/** A data folder or file that belongs to another user of this computer. */
export class NotOwnError extends Error {
  constructor(readonly path: string, kind: 'folder' | 'file') {
    super(`the ${kind} ${printableText(path)} belongs to another user of this computer, who could read or change what the app keeps `
      + `there (settings, upload journal, keys); the app uses only a data folder of your own. Choose another data folder `
      + `(PAYROLL_DATA_DIR), or have this one given to your user.`);
    this.name = 'NotOwnError';
  }
}

/** A folder every user may put files in (the sticky bit, as /tmp has): never one user's data folder. */
export class SharedFolderError extends Error {
  constructor(readonly path: string) {
    super(`the folder ${printableText(path)} is shared by every user of this computer (as /tmp is), so it cannot be a data `
      + 'folder: choose a folder of your own (PAYROLL_DATA_DIR).');
    this.name = 'SharedFolderError';
  }
}

/** A data folder that is not a folder, or cannot be made: which one, and what is wrong, in words. */
export class DataFolderError extends Error {
  constructor(readonly path: string, problem: string) {
    super(`the data folder ${printableText(path)} ${problem}`);
    this.name = 'DataFolderError';
  }
}

/** Why a folder could not be made in `parent` (or looked into), in words. */
function makeProblem(parent: string, error: unknown): string {
  const where = printableText(parent);
  switch (errorCode(error)) {
    case 'EROFS':
      return `cannot be made: the disk of ${where} is read-only; choose a data folder on a disk that can be written`;
    case 'EACCES':
    case 'EPERM':
      return `cannot be made: this user is not allowed to create a folder in ${where}; choose a data folder of your own (in your home folder, say)`;
    case 'ENOSPC':
      return `cannot be made: the disk of ${where} is full; free some space on it`;
    default:
      return `cannot be made: ${describeError(error)}`;
  }
}

/**
 * Makes the folder and its missing parents, one at a time: Node's recursive mkdir says a file in the way as EEXIST and
 * a read-only disk as ENOENT ("no such file"), so each level is made by itself and what fails is said as it is.
 * true when the folder itself was made.
 */
function makeFolders(dir: string): boolean {
  const target = resolve(dir);
  const missing: string[] = [];
  // Set when a folder on the way may not be looked into: the walk goes on up to say which one.
  let denied = false;
  for (let at = target; ; at = dirname(at)) {
    let stats: Stats;
    try {
      stats = statSync(at);
    } catch (error) {
      const code = errorCode(error);
      const last = dirname(at) === at;
      // ENOTDIR: a file stands where a folder above should be; the walk up finds it.
      if ((code === 'ENOENT' || code === 'ENOTDIR') && !last) {
        missing.unshift(at);
        continue;
      }
      if ((code === 'EACCES' || code === 'EPERM') && !last) {
        denied = true;
        continue;
      }
      throw new DataFolderError(dir, `cannot be used: ${describeError(error)}`);
    }
    if (denied) {
      throw new DataFolderError(dir, `cannot be used: this user is not allowed to look into ${printableText(at)}; choose a data folder of your own (in your home folder, say)`);
    }
    if (stats.isDirectory()) break;
    throw new DataFolderError(dir, at === target
      ? 'is a file, not a folder: move the file away, or choose another data folder'
      : `cannot be made: ${printableText(at)} is a file, not a folder; choose another data folder`);
  }
  for (const each of missing) {
    try {
      mkdirSync(each, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      // Made meanwhile by another process (the app and a scheduled run starting together): as good.
      if (errorCode(error) === 'EEXIST' && statSync(each).isDirectory()) continue;
      throw new DataFolderError(dir, makeProblem(dirname(each), error));
    }
  }
  return missing.length > 0;
}

/**
 * Refuses another user's folder or file, and a folder shared by every user; takes away access by others (never adds
 * any, and leaves the owner's bits and the folder's setgid bit as they are).
 */
function keepPrivate(path: string, stats: Stats, kind: 'folder' | 'file'): void {
  if (!POSIX) return;
  if (stats.uid !== process.getuid?.()) throw new NotOwnError(path, kind);
  if (kind === 'folder' && (stats.mode & 0o1000) !== 0) throw new SharedFolderError(path);
  if ((stats.mode & 0o077) === 0) return;
  try {
    chmodSync(path, stats.mode & 0o7700);
  } catch {
    // A file system without modes or a read-only disk: opening the journal or the settings says what is wrong.
  }
}

/** Creates a folder (and its missing parents) readable by its owner only, or makes the existing one so. */
export function makePrivateDir(dir: string): void {
  const created = makeFolders(dir);
  const stats = statSync(dir);
  // mkdir's mode is filtered by the umask; a new folder is set exactly.
  if (created && POSIX) chmodSync(dir, PRIVATE_DIR_MODE);
  else keepPrivate(dir, stats, 'folder');
}

/**
 * Creates an empty file readable by its owner only, or makes the existing one so; with `create: false` a missing file
 * is left missing (one that must not exist empty, such as the settings). SQLite gives a database's -wal and -shm
 * files the database file's mode, so a database made private before it is opened stays private.
 */
export function makePrivateFile(path: string, { create = true }: { create?: boolean } = {}): void {
  let fd: number;
  try {
    fd = openSync(path, create ? 'a' : 'r', PRIVATE_FILE_MODE);
  } catch (error) {
    if (!create && errorCode(error) === 'ENOENT') return;
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    keepPrivate(path, stats, 'file');
  } finally {
    closeSync(fd);
  }
}
