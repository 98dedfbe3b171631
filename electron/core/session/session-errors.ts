/** Errors of the session service that the bridge answers with their own codes. */
import { dirname } from 'node:path';
import { printableText } from '../../lib/printable-name';
import type { LockLost } from '../../lib/process-lock';
import { LastingError } from '../notices/lasting-error';

/** A part cannot start yet: no base URL or no credentials for the profile, no watched folder. */
export class NotConfiguredError extends Error {
  override readonly name = 'NotConfiguredError';
}

/** The action does not fit the current state (retry a job that is not waiting, a local-server call while it is stopped). */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
}

/** No such job, batch or file. */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/** Not possible in this mode (a native dialog in browser mode, redeliver on a remote service). */
export class UnsupportedError extends Error {
  override readonly name = 'UnsupportedError';
}

/** The watch stopped because the service changed to one uploads cannot go to; it goes on once there is one again. */
export class UploadsStoppedError extends LastingError {
  override readonly name = 'UploadsStoppedError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, 'watching', options);
  }
}

/** What the clerk is told when the data folder's lock went while the uploader ran (uploads then stop). */
export function lockLostMessage(lost: LockLost): string {
  const folder = printableText(dirname(lost.path));
  if (lost.reason === 'folder-removed') {
    return `the data folder ${folder} was removed while the uploader ran; uploads stopped, and nothing more is written there. `
      + 'Restore the folder (from the recycle bin or a backup) or start the uploader again: files still claimed in the watched '
      + "folder's .processing/ folder are taken up again";
  }
  return `another process took over the data folder ${folder} (its lock file ${printableText(lost.path)} now names it); `
    + 'this uploader stopped so that only one works on that folder. Stop the other one first, or give each its own data folder (PAYROLL_DATA_DIR)';
}
