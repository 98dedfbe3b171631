/**
 * Why a connection test failed, in the clerk's words: the API client's own ("POST /oauth/v1/access-token failed: 401
 * Unauthorized: …") name a request the clerk never made. What the service said is kept, and its trace id when it could
 * not answer (support finds the request by it).
 */
import { describeError } from '../../lib/fs-errors';
import { ApiError, UnexpectedResponseError } from '../api';

export function connectionTestFailure(error: unknown): string {
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
