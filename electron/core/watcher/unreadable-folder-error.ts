import { printableText } from '../../lib/printable-name';
import { LastingError } from '../notices/lasting-error';

/**
 * The watched folder is there, but this user may not list it (its permissions leave the user out): nothing in it can
 * be found. Said once, in words a clerk can act on; the watcher waits, quietly, and watches it once it can be read,
 * which ends the problem (the folder is watched again).
 */
export class UnreadableFolderError extends LastingError {
  constructor(
    /** The watched folder's path. */
    readonly folder: string,
    options?: ErrorOptions,
  ) {
    super(`${unreadableFolderMessage(folder)} It is watched by itself once it can be read.`, 'watching', options);
    this.name = 'UnreadableFolderError';
  }
}

/** What to say about a folder this user may not list, and what to do about it. */
export function unreadableFolderMessage(folder: string): string {
  return `The folder "${printableText(folder)}" cannot be read by this user (access is denied), so no file in it can be found. `
    + 'Give this user read access to the folder, or choose another folder.';
}
