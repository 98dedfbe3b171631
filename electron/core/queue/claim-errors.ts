/**
 * Why a file could not be claimed (moved into `<folder>/.processing/<owner>/` before it is read), in the clerk's
 * words: "EACCES: permission denied, mkdir '…/.processing'" says neither that the uploader must write in the export
 * folder nor what to do about it. Denied access is said of the folder that refused, with the account it belongs to:
 * in a folder shared by several accounts, that is often a `.processing` folder another clerk's uploader made, not
 * the watched folder.
 */
import { dirname, relative, resolve } from 'node:path';
import { describeError, errorCode, errorPath } from '../../lib/fs-errors';
import { printableText } from '../../lib/printable-name';
import { accountName, groupOf, ownerOf, refusingFolderOf } from '../../lib/refusing-folder';

/** The folder, in the watched folder, where each uploader keeps the files it is working on (folder-claims.ts). */
export const CLAIMS_FOLDER = '.processing';

/**
 * A folder in `.processing` (or `.processing` itself) that this account may not write in: the uploaders that share
 * the watched folder must all write there, to claim files and to take over those of one that stopped.
 */
function claimFolderRefused(folder: string, refused: string): string {
  const owner = ownerOf(refused);
  const me = accountName();
  const where = printableText(refused);
  const theirs = owner !== undefined && owner !== me;
  const group = groupOf(folder);
  return `this uploader${me ? ` (running as ${me})` : ''} may not write in the folder ${where}${theirs ? `, which belongs to ${owner}` : ''}, `
    + `and it needs to: the uploaders that share ${printableText(folder)} move each file into a folder of their own in its `
    + `${CLAIMS_FOLDER} folder before reading it, and take over the files of one that stopped. `
    + (theirs
      ? `Have ${owner} or an administrator give ${group ? `the group ${group}` : 'the group of the watched folder'} write access to `
        + `${where} and the folders in it (chgrp${group ? ` ${group}` : ''} and chmod g+rwx on each), as an uploader of this version `
        + 'makes them in a folder shared with its group'
      : 'Give the account the uploader runs as permission to change files in that folder');
}

/** What stops the uploader from claiming files in `folder`, and what to do; the same words for the same cause. */
export function claimProblem(folder: string, error: unknown): string {
  const where = printableText(folder);
  const syscall = (error as { syscall?: unknown } | undefined)?.syscall;
  switch (errorCode(error)) {
    case 'EACCES':
    case 'EPERM': {
      // A folder inside the watched one (`.processing`, a claim folder) refused: that one is named, with its owner.
      const refused = refusingFolderOf(error);
      const below = refused === undefined ? '' : relative(resolve(folder), resolve(refused));
      if (refused !== undefined && below !== '' && !below.startsWith('..')) return claimFolderRefused(folder, refused);
      if (syscall === 'rename' && refused === undefined) {
        return `the file could not be moved into the folder's ${CLAIMS_FOLDER} folder, as the uploader does with each file `
          + `before reading it: it may be open in another program, or this uploader may not change files in ${where}. `
          + 'Close the program, or give the uploader permission to change files in that folder';
      }
      return `this uploader may not write in the folder ${where}, and it needs to: it moves each file into the folder's `
        + `${CLAIMS_FOLDER} folder before reading it, so that two uploaders never send the same file. Give the account `
        + 'the uploader runs as permission to change files in that folder';
    }
    case 'EROFS':
      return `the folder ${where} is on a read-only drive, and the uploader needs to write there: it moves each file into `
        + `the folder's ${CLAIMS_FOLDER} folder before reading it. Export to a folder it can write in`;
    case 'ENOTDIR': {
      // The path that should be a folder is the one above what the call was about (`.processing` for a mkdir of
      // `.processing/<owner>`). When that is the watched folder itself (a mkdir of `.processing` in it), the watched
      // path is no folder: a file, or a path through one; no `.processing` file is to blame.
      const at = errorPath(error);
      const blocker = at === undefined ? CLAIMS_FOLDER : relative(folder, dirname(at));
      if (blocker === '') return `the watched folder ${where} is not a folder (a file has that name): choose the folder the exports are saved in`;
      return `a file named ${printableText(blocker)} is in the folder ${where}, where the uploader keeps the files it is `
        + 'working on in a folder of that name: remove or rename that file';
    }
    case 'ENOSPC':
      return `the drive of the folder ${where} is full: free some space there`;
    case 'ENOENT':
      return `the folder ${where} is not there (any more)`;
    default:
      return `it could not be moved into the folder's ${CLAIMS_FOLDER} folder, as the uploader does with each file before `
        + `reading it (${describeError(error)})`;
  }
}
