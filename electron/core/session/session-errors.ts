/** Errors of the session service that the bridge answers with their own codes. */

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
export class UploadsStoppedError extends Error {
  override readonly name = 'UploadsStoppedError';
}
