/**
 * How a manual batch that did not get through is journaled: `unknown` when the service may hold it all the same
 * (the API client says so: the POST went out and no answer came, or the service failed while taking it), `failed`
 * when it surely does not (a refusal, an answer saying it was not taken, a sign-in or a connection that failed before
 * the records went out). The reason is in the clerk's words (failure-words.ts), except a refusal's: that is the
 * service's own, whose messages name records and fields (`[1].ssn: …`) and are put on them by the screens.
 */
import { isOutcomeUnknown, isSignInFailure, NetworkError, signInFailureWords, unansweredWords, unreachedWords } from '../api';
import { classify, reasonOf, said, withTrace } from './failures';
import type { BatchState } from './job-types';

/** What the clerk is to do about a batch whose outcome is unknown. */
const CHECK_FIRST = 'The service may have imported the records: look at its imports, or ask your service provider, '
  + 'before sending them again, since a second send would import them twice.';

export function batchFailure(error: unknown): { state: Extract<BatchState, 'failed' | 'unknown'>; error: string } {
  if (isOutcomeUnknown(error)) return { state: 'unknown', error: `${unknownWhy(error)} ${CHECK_FIRST}` };
  if (isSignInFailure(error)) return { state: 'failed', error: signInFailureWords(error) };
  if (error instanceof NetworkError) return { state: 'failed', error: unreachedWords(error) };
  const failure = classify(error);
  if (failure.kind === 'http' && (failure.status >= 500 || failure.status === 429)) {
    return { state: 'failed', error: `The service could not take the records now: ${reasonOf(failure)}. Nothing was imported: send them again in a while.` };
  }
  return { state: 'failed', error: reasonOf(failure) };
}

function unknownWhy(error: unknown): string {
  if (error instanceof NetworkError) return unansweredWords(error, 'The records');
  const failure = classify(error);
  if (failure.kind !== 'http') return failure.message;
  if (failure.status >= 200 && failure.status < 300) return `The service answered the records, but not as it should (${said(failure)}).`;
  if (failure.status === 502 || failure.status === 504) {
    return `A gateway or proxy between the app and the service answered HTTP ${failure.status} (${withTrace(said(failure), failure)}), after it may have passed the records on.`;
  }
  return `The service failed while taking the records: ${withTrace(said(failure), failure)}.`;
}
