/**
 * A candidate file the watcher could not read after its retries (it stayed locked, or access to it is denied), or
 * whose name cannot be read as text (unreadable-name.ts). It is left where it is and tried again at the next sweep; a
 * run that must end (`watch --once`) stops waiting for it.
 */
export class UnreadableFileError extends Error {
  constructor(
    message: string,
    /** The file's path in the watched folder. */
    readonly path: string,
    /** Why it could not be read, in words (without the path). */
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'UnreadableFileError';
  }
}
