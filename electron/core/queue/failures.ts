/** Sorts the API client's errors into what the queue does next, and words them for the clerk. */
import { AbortError, ApiError, FileChangedError, NetworkError } from '../api/api-errors';
import { describeError } from '../../lib/fs-errors';

export type Failure =
  | {
    kind: 'http'; status: number; title: string; messages: string[]; retryable: boolean; retryAfterMs?: number;
    /** The answer's X-Trace-Id (or its error body's traceId): what support finds the request by. */
    traceId?: string; message: string;
  }
  | { kind: 'network'; message: string }
  | { kind: 'file-changed'; message: string }
  | { kind: 'aborted'; message: string }
  | { kind: 'other'; error: unknown; message: string };

export function classify(error: unknown): Failure {
  const message = describeError(error);
  if (error instanceof ApiError) {
    return {
      kind: 'http', status: error.status, title: error.title, messages: error.messages, retryable: error.retryable, message,
      ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
      ...(error.traceId !== undefined ? { traceId: error.traceId } : {}),
    };
  }
  if (error instanceof NetworkError) return { kind: 'network', message };
  if (error instanceof FileChangedError) return { kind: 'file-changed', message };
  if (error instanceof AbortError) return { kind: 'aborted', message };
  return { kind: 'other', error, message };
}

/**
 * What the service said: its messages, or its status when it gave none (an answer without an error body, from a
 * proxy say); the whole error text for a failure that is not an answer. Without the trace id: see withTrace.
 */
export function said(failure: Failure): string {
  if (failure.kind !== 'http') return failure.message;
  if (failure.messages.length > 0) return failure.messages.join('; ');
  const status = failure.title === `HTTP ${failure.status}` ? failure.title : `${failure.status} ${failure.title}`;
  return `the service answered ${status} without saying why`;
}

/**
 * `reason`, ending with the trace id of the service's answer when it carried one: the service asks the clerk to give
 * it to support, who find the request by it (docs/service-decisions.md §7). Left as it is when the reason quotes the
 * id already (the service's own "contact support with trace id …").
 */
export function withTrace(reason: string, failure: Failure): string {
  if (failure.kind !== 'http' || failure.traceId === undefined || reason.includes(failure.traceId)) return reason;
  return `${reason} (trace id ${failure.traceId}: give it to support if this goes on)`;
}

/**
 * What the service said: a whole reason, or the end of one. With the trace id when the service could not answer
 * (5xx), where support needs it; a refusal (4xx) says what to correct, and its id would only be noise.
 */
export function reasonOf(failure: Failure): string {
  return failure.kind === 'http' && failure.status >= 500 ? withTrace(said(failure), failure) : said(failure);
}
