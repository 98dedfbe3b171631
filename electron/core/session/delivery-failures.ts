/**
 * The failures of the Deliveries calls (list, one attempt, send again) in the clerk's words. The API client's own
 * ("POST /oauth/v1/access-token failed: 401 Unauthorized: …", "cannot reach GET http://…/law/api/v1/deliveries:
 * connection refused") name requests the clerk never made, and a bare "cannot reach" sends the clerk to the network
 * when the service is stopped or the base URL wrong. Signing in and reaching the service are said as a connection
 * test says them (failure-words.ts). Each error keeps its kind, so it crosses the bridge as before (service_error with
 * the service's status, network_error, not_found, conflict), with the API client's own error as its cause.
 */
import { ApiError, isSignInFailure, NetworkError, signInFailureWords, supportTrace, unansweredWords, unreachedWords, UnexpectedResponseError } from '../api';
import { describeError } from '../../lib/fs-errors';
import { ConflictError, NotFoundError } from './session-errors';

/** An answer of the service's, said in words; its status and trace id stay for whoever looks further. */
class ServiceAnswerError extends ApiError {
  constructor(words: string, error: ApiError) {
    super({
      status: error.status, title: error.title, messages: error.messages, request: error.request,
      ...(error.traceId !== undefined ? { traceId: error.traceId } : {}),
      ...(error.oauthError !== undefined ? { oauthError: error.oauthError } : {}),
      ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    });
    this.name = error.name;
    this.message = words;
    this.cause = error;
  }
}

/** What the service said, or its status when it said nothing. */
const saidBy = (error: ApiError): string => error.messages.join('; ') || `${error.status} ${error.title}`;

/**
 * A call that did not get through for a reason any of the Deliveries calls can meet, in words; undefined for an
 * answer only the call itself can word.
 */
function commonWords(error: unknown, what: string): Error | undefined {
  // Only the service's answer or the connection: a secret missing from the keychain (not_configured), a keychain
  // that cannot be used, keep their own words and kinds.
  if (isSignInFailure(error) && (error instanceof ApiError || error instanceof NetworkError)) return withWords(error, signInFailureWords(error));
  if (error instanceof NetworkError) {
    const words = error.requestSent ? `${unansweredWords(error, what)} Try again in a moment.` : unreachedWords(error);
    return withWords(error, words);
  }
  if (error instanceof UnexpectedResponseError) {
    return new ServiceAnswerError(
      `Something answered at this base URL, but not as the service does (${saidBy(error)}): check the base URL with your service provider.`,
      error,
    );
  }
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 403) {
    return new ServiceAnswerError(
      `The service does not let this client see its deliveries (it said: ${saidBy(error)}). Ask your service provider to give `
        + 'the client the deliveries:read permission.',
      error,
    );
  }
  if (error.status >= 500 || error.status === 429) {
    return new ServiceAnswerError(`The service could not answer now (it said: ${saidBy(error)})${supportTrace(error)}. Try again in a while.`, error);
  }
  return undefined;
}

/** The same kind of error, with words of the clerk's and the original as its cause. */
function withWords(error: unknown, words: string): Error {
  if (error instanceof NetworkError) {
    return new NetworkError(words, {
      requestSent: error.requestSent, cause: error,
      ...(error.code !== undefined ? { code: error.code } : {}),
      ...(error.reason !== undefined ? { reason: error.reason } : {}),
      ...(error.address !== undefined ? { address: error.address } : {}),
    });
  }
  if (error instanceof ApiError) return new ServiceAnswerError(words, error);
  return new Error(words, { cause: error });
}

/** Why the deliveries (`what`: "The request for the deliveries") could not be shown. */
export function deliveriesFailure(error: unknown, what: string): unknown {
  const worded = commonWords(error, what);
  if (worded) return worded;
  if (error instanceof ApiError) return new ServiceAnswerError(`The service refused the request (it said: ${saidBy(error)}).`, error);
  return error;
}

/** Where a redelivery was asked for: the test server built into the app, or a local server run on its own. */
export type RedeliveryServer = { builtIn: true } | { builtIn: false; url: string };

/**
 * Why delivery `id`'s event could not be sent again, in words. The local server's answers: 404 (no such delivery of
 * this client's), 429 with Retry-After (its event was sent again less than 5 s ago), 409 (no webhook registered).
 */
export function redeliveryFailure(error: unknown, id: number, server: RedeliveryServer): unknown {
  if (error instanceof ApiError && !isSignInFailure(error) && !(error instanceof UnexpectedResponseError)) {
    if (error.status === 404) {
      return new NotFoundError(
        `There is no delivery number ${id} for your client at the local test server, so there is nothing to send again (it said: ${saidBy(error)}).`,
        { cause: error },
      );
    }
    if (error.status === 429) {
      const seconds = error.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(error.retryAfterMs / 1000));
      const wait = seconds === undefined ? 'a few seconds' : seconds === 1 ? '1 second' : `${seconds} seconds`;
      return new ConflictError(
        `The event of delivery ${id} was sent again only a moment ago, and the local test server sends an event again at most `
          + `once every 5 seconds: wait ${wait}, then press Send again now once more.`,
        { cause: error },
      );
    }
    if (error.status === 409) {
      const register = server.builtIn
        ? 'Register one on the Local server screen first.'
        : `Register one with the local test server at ${server.url} first: start it with --webhook-url and the address, `
          + 'or register the address with its PUT /local/v1/webhook.';
      return new ConflictError(`No webhook address is registered, so there is nowhere to send this event again: nothing was sent. ${register}`, { cause: error });
    }
  }
  if (error instanceof NetworkError && error.requestSent) {
    return withWords(error, `${unansweredWords(error, 'The request to send it again')} It may have been sent all the same: `
      + 'look for a new try in the list before you ask again.');
  }
  const worded = commonWords(error, 'The request to send it again');
  if (worded) return worded;
  if (error instanceof ApiError) {
    return new ServiceAnswerError(`The local test server refused to send it again (it said: ${saidBy(error)}).`, error);
  }
  return error instanceof Error ? error : new Error(describeError(error));
}
