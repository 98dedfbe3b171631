/** Sorts the API client's errors into what the queue does next. */
import { AbortError, ApiError, FileChangedError, NetworkError } from '../api/api-errors';
import { describeError } from '../../lib/fs-errors';

export type Failure =
  | { kind: 'http'; status: number; messages: string[]; retryable: boolean; retryAfterMs?: number; message: string }
  | { kind: 'network'; message: string }
  | { kind: 'file-changed'; message: string }
  | { kind: 'aborted'; message: string }
  | { kind: 'other'; error: unknown; message: string };

export function classify(error: unknown): Failure {
  const message = describeError(error);
  if (error instanceof ApiError) {
    return {
      kind: 'http', status: error.status, messages: error.messages, retryable: error.retryable, message,
      ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    };
  }
  if (error instanceof NetworkError) return { kind: 'network', message };
  if (error instanceof FileChangedError) return { kind: 'file-changed', message };
  if (error instanceof AbortError) return { kind: 'aborted', message };
  return { kind: 'other', error, message };
}

/** The server's messages, or the whole error text when it gave none. */
export function reasonOf(failure: Failure): string {
  if (failure.kind === 'http' && failure.messages.length > 0) return failure.messages.join('; ');
  return failure.message;
}
