/**
 * Why a file could not be claimed (moved into `<folder>/.processing/<owner>/` before it is read), in the clerk's
 * words: "EACCES: permission denied, mkdir '…/.processing'" says neither that the uploader must write in the export
 * folder nor what to do about it.
 */
import { dirname, relative } from 'node:path';
import { describeError, errorCode, errorPath } from '../../lib/fs-errors';
import { printableText } from '../../lib/printable-name';
import { CLAIMS_FOLDER } from './folder-claims';

/** What stops the uploader from claiming files in `folder`, and what to do; the same words for the same cause. */
export function claimProblem(folder: string, error: unknown): string {
  const where = printableText(folder);
  const syscall = (error as { syscall?: unknown } | undefined)?.syscall;
  switch (errorCode(error)) {
    case 'EACCES':
    case 'EPERM':
      if (syscall === 'rename') {
        return `the file could not be moved into the folder's ${CLAIMS_FOLDER} folder, as the uploader does with each file `
          + `before reading it: it may be open in another program, or this uploader may not change files in ${where}. `
          + 'Close the program, or give the uploader permission to change files in that folder';
      }
      return `this uploader may not write in the folder ${where}, and it needs to: it moves each file into the folder's `
        + `${CLAIMS_FOLDER} folder before reading it, so that two uploaders never send the same file. Give the account `
        + 'the uploader runs as permission to change files in that folder';
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
