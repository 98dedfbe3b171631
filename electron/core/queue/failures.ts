/** Sorts the API client's errors into what the queue does next, and words them for the clerk. */
import { AbortError, ApiError, credentialsSentWith, FileChangedError, isSignInFailure, NetworkError } from '../api/api-errors';
import { clientRefusalWords, credentialsFixWords, isClientRefusal, refusedClient, retriedNetworkWords } from '../api/failure-words';
import { MissingCredentialsError } from '../credentials/credential-errors';
import type { CredentialsSource } from '../credentials/resolve-credentials';
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

/**
 * `lead` ("requesting an upload address failed"), then why: a request that got no answer in the clerk's words (where
 * it went and what to check, never the request line, which for an upload is its pre-signed address), else what the
 * service said (reasonOf).
 */
export function waitReason(lead: string, failure: Failure, error: unknown, what: string): string {
  if (failure.kind === 'network' && error instanceof NetworkError) return `${lead}. ${retriedNetworkWords(error, what)}`;
  return `${lead}: ${reasonOf(failure)}`;
}

/**
 * Why nothing can be sent until the client's credentials are changed, in words with what to do, or undefined: the
 * service refused the client ID and secret a token was asked with, or none are set. Trying again on a timer cannot
 * end either. `client` is the queue's service (its environment and client ID), when it has one. What to do depends on
 * where the credentials came from (the API client tells it with the refusal, resolve-credentials with a missing one):
 * the environment variables win over the ones saved in Settings, so they are what must change.
 */
export function credentialsProblem(error: unknown, client: { profile?: string; clientId?: string } | undefined): string | undefined {
  let fact: string;
  let source: CredentialsSource | undefined;
  if (error instanceof MissingCredentialsError) {
    fact = `${error.detail} No file is uploaded until a client ID and secret are set:`;
    source = error.source;
  } else if (error instanceof ApiError && isSignInFailure(error) && isClientRefusal(error)) {
    fact = `${clientRefusalWords(error, refusedClient(error, client?.clientId))} No file is uploaded until they are right:`;
    source = credentialsSentWith(error)?.source;
  } else {
    return undefined;
  }
  return `${fact} ${credentialsFixWords(client?.profile ?? (error instanceof MissingCredentialsError ? error.profile : undefined), source)}`;
}
