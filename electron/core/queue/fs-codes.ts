/** Small helpers for Node's system errors. */

export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The file is not there (any more). */
export const isGone = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes(errorCode(error) ?? '');

/** Locks and denied access, which usually clear up (an exporter still holds the file, a share hiccups). */
export const isBusy = (error: unknown) => ['EBUSY', 'EPERM', 'EACCES'].includes(errorCode(error) ?? '');
