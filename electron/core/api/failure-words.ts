/**
 * The API client's failures in the clerk's words: its own ("POST /oauth/v1/access-token failed: 401 Unauthorized: …",
 * "cannot reach POST http://…/law/api/v1/census: connection refused") name a request the clerk never made. Used for a
 * connection test (first run, Settings) and for a batch of records that did not get through (Send records, History),
 * so both say the same thing of the same failure. What the service said is kept, and its trace id when it could not
 * answer (support finds the request by it); so is the transport's reason, in brackets, for whoever looks further.
 */
import { describeError } from '../../lib/fs-errors';
import { ApiError, NetworkError, UnexpectedResponseError } from './api-errors';
import { isTlsFailure } from './http-transport';

const UNREACHABLE_HOST = new Set(['ENOTFOUND', 'EAI_AGAIN']);

/** A request that never reached the service (`requestSent` false): nothing was sent. */
export function unreachedWords(error: NetworkError): string {
  const at = error.address ? ` at ${error.address}` : '';
  const why = error.reason ? ` (${error.reason})` : '';
  if (error.code === 'ECONNREFUSED') {
    return `Nothing answers${at}${why}. Check the base URL, and that the service is running, then try again.`;
  }
  if (error.code !== undefined && UNREACHABLE_HOST.has(error.code)) {
    return `The service's address was not found${at}${why}. Check the base URL and the network connection, then try again.`;
  }
  if (isTlsFailure(error.code)) {
    return `A secure connection to the service could not be made${at}${why}. Check the base URL; if it is right, give this message to your IT contact.`;
  }
  return `The service cannot be reached${at}${why}. Check the network connection and the base URL, then try again.`;
}

/** A request that went out and got no answer (`requestSent` true), said of what it was for. */
export function unansweredWords(error: NetworkError, what: string): string {
  const at = error.address ? ` at ${error.address}` : '';
  const why = error.reason ? ` (${error.reason})` : '';
  return `${what} went to the service${at}, but no answer came back${why}.`;
}

/** Why signing in (the token request of a connection test, or of a call) failed. */
export function signInFailureWords(error: unknown): string {
  if (error instanceof NetworkError) {
    return error.requestSent
      ? `${unansweredWords(error, 'The sign-in')} Try again; if it keeps happening, check the base URL with your service provider.`
      : unreachedWords(error);
  }
  if (!(error instanceof ApiError)) return describeError(error);
  const said = error.messages.join('; ');
  if (error instanceof UnexpectedResponseError) {
    return 'Something answered at this base URL, but not as the service does: check the base URL with your service provider.';
  }
  if (error.status === 401 || error.oauthError === 'invalid_client') {
    return `The service did not accept this client ID and secret${said ? ` (it said: ${said})` : ''}. `
      + 'Check both with your service provider, type them again and test once more.';
  }
  if (error.status === 404 || error.status === 405) {
    return `The service has no sign-in at this base URL (it answered ${error.status} ${error.title}): check the base URL with your service provider.`;
  }
  const trace = error.status >= 500 && error.traceId ? ` (trace id ${error.traceId}: give it to support if this goes on)` : '';
  return `The service could not sign this client in: it answered ${error.status} ${error.title}${said ? ` (${said})` : ''}${trace}.`;
}
