import { backoffMs } from './backoff';
import { printableText } from './printable-name';
/** How the watcher reacts to a failed stat/open/readdir. */
export type FsErrorKind = 'gone' | 'busy' | 'other';

// Windows reports a file still held open by its writer (Excel, an export tool) as EBUSY or EPERM;
// network shares often answer EACCES for the same situation. All three usually clear up by themselves.
const BUSY_CODES = new Set(['EBUSY', 'EPERM', 'EACCES']);
const GONE_CODES = new Set(['ENOENT', 'ENOTDIR']);

export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

/** The path a Node fs error is about, when it says. */
export function errorPath(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'path' in error && typeof error.path === 'string') return error.path;
  return undefined;
}

export function classifyFsError(error: unknown): FsErrorKind {
  const code = errorCode(error);
  if (code !== undefined && GONE_CODES.has(code)) return 'gone';
  if (code !== undefined && BUSY_CODES.has(code)) return 'busy';
  return 'other';
}

/** Delay before retry number `attempt` (0-based): doubling from `baseMs`, capped at `maxMs`. */
export function busyBackoffMs(attempt: number, baseMs: number, maxMs = 5_000): number {
  // No jitter: one process retrying its own locked file has nobody to fall into step with.
  return backoffMs(attempt, { baseMs, maxMs, jitter: 'none' });
}

/**
 * An error's words for a person (a log line, a notice, an error file). A file-system error quotes its paths, which
 * may hold a line break or a mark that reorders text: in them those are escaped as in printable names. The rest of
 * the message is kept as it was written (a message of ours may hold line breaks on purpose, a list of problems).
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let message = error.message;
  for (const key of ['path', 'dest']) {
    const value: unknown = (error as Error & Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') message = message.split(value).join(printableText(value));
  }
  return message;
}

/** The file is not there (any more). */
export const isGone = (error: unknown) => classifyFsError(error) === 'gone';

/**
 * Access denied. For a file this is often a lock that clears up (see isBusy); for a folder that cannot be listed or
 * entered it is the folder's permissions, which stay until someone changes them.
 */
export const isDenied = (error: unknown) => {
  const code = errorCode(error);
  return code === 'EACCES' || code === 'EPERM';
};

/** Locks and denied access, which usually clear up (an exporter still holds the file, a share hiccups). */
export const isBusy = (error: unknown) => classifyFsError(error) === 'busy';
