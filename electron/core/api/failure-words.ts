/**
 * The API client's failures in the clerk's words: its own ("POST /oauth/v1/access-token failed: 401 Unauthorized: …",
 * "cannot reach POST http://…/law/api/v1/census: connection refused") name a request the clerk never made. Used for a
 * connection test (first run, Settings), for a batch of records that did not get through (Send records, History) and
 * for a file the upload queue waits with (Queue), so all say the same thing of the same failure. What the service
 * said is kept, and its trace id when it could not answer (support finds the request by it); so is the transport's
 * reason, in brackets, for whoever looks further.
 */
import { describeError } from '../../lib/fs-errors';
import { environmentFixWords } from '../credentials/credential-errors';
import type { CredentialsSource } from '../credentials/resolve-credentials';
import { ApiError, credentialsSentWith, NetworkError, UnexpectedResponseError } from './api-errors';
import { isTlsFailure } from './http-transport';

const UNREACHABLE_HOST = new Set(['ENOTFOUND', 'EAI_AGAIN']);

/** A request that never reached the service (`requestSent` false): nothing was sent. */
export function unreachedWords(error: NetworkError): string {
  return `${unreached(error, ', then try again')}.`;
}

/** Where it went, what went wrong and what to check (`then` ends it: the clerk's next step), with no full stop. */
function unreached(error: NetworkError, then: string): string {
  const at = error.address ? ` at ${error.address}` : '';
  const why = error.reason ? ` (${error.reason})` : '';
  if (error.code === 'ECONNREFUSED') {
    return `Nothing answers${at}${why}. Check the base URL, and that the service is running${then}`;
  }
  if (error.code !== undefined && UNREACHABLE_HOST.has(error.code)) {
    return `The service's address was not found${at}${why}. Check the base URL and the network connection${then}`;
  }
  if (isTlsFailure(error.code)) {
    return `A secure connection to the service could not be made${at}${why}. Check the base URL; if it is right, give this message to your IT contact`;
  }
  return `The service cannot be reached${at}${why}. Check the network connection and the base URL${then}`;
}

/**
 * A request the upload queue tries again by itself (a handshake, an upload) that got no answer: where it went and
 * what to check, never the request itself (an upload's is the pre-signed address, the service's to know). The queue
 * says when it tries next, so this does not ask the clerk to try again. `what` names the request for the clerk. With
 * no full stop at the end, as a reason the queue keeps (the screens and the command line end it their way).
 */
export function retriedNetworkWords(error: NetworkError, what: string): string {
  return error.requestSent
    ? `${unansweredWords(error, what)} Check the network connection; if it keeps happening, check the base URL with your service provider`
    : unreached(error, '');
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
  if (isClientRefusal(error)) {
    // Typed again in Settings, they would change nothing while the environment's win: those are named instead.
    if (credentialsSentWith(error)?.source === 'env') {
      return `${clientRefusalWords(error, refusedClient(error))} To change them, ${environmentFixWords(undefined)}.`;
    }
    return `${clientRefusalWords(error, 'this client ID and secret')} Check both with your service provider, type them again and test once more.`;
  }
  if (error.status === 404 || error.status === 405) {
    return `The service has no sign-in at this base URL (it answered ${error.status} ${error.title}): check the base URL with your service provider.`;
  }
  return `The service could not sign this client in: it answered ${error.status} ${error.title}${said ? ` (${said})` : ''}${supportTrace(error)}.`;
}

/** A failure of the service's own (5xx) names its trace id, in brackets: support finds the request by it. */
export function supportTrace(error: ApiError): string {
  return error.status >= 500 && error.traceId ? ` (trace id ${error.traceId}: give it to support if this goes on)` : '';
}

/**
 * The service's answer to a token request says it does not know this client ID and secret (a 401, or OAuth's
 * `invalid_client`): only new credentials can change that, trying again cannot.
 */
export function isClientRefusal(error: ApiError): boolean {
  return !(error instanceof UnexpectedResponseError) && (error.status === 401 || error.oauthError === 'invalid_client');
}

/**
 * The client a refused token request was made as, for clientRefusalWords: its ID, and the environment variables when
 * they gave it ("the client ID acme and its secret from the environment variables …"). `clientId`: the one the
 * request is known to have been made as when the error does not say (sentAs).
 */
export function refusedClient(error: unknown, clientId?: string): string {
  const sent = credentialsSentWith(error);
  const id = sent?.clientId ?? clientId;
  const client = id ? `the client ID ${id} and its secret` : 'this client ID and secret';
  return sent?.source === 'env' ? `${client} from the environment variables PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET` : client;
}

/** "The service did not accept <client> (it said: …)." */
export function clientRefusalWords(error: ApiError, client: string): string {
  const said = error.messages.join('; ');
  return `The service did not accept ${client}${said ? ` (it said: ${said})` : ''}.`;
}

/**
 * What to do about client credentials the service does not accept, or that are not set, where nothing but new ones
 * helps (files held for them). The desktop app and the command line read the same words (nothing tells them apart,
 * as MissingCredentialsError's words are shared), so both ways are named, the clerk's first. `profile` is the
 * environment (`sandbox`) the command line names. Said after a colon ("No file is uploaded until …: open Settings"),
 * and with no full stop at the end, as a reason the queue keeps (the screens and the command line end it their way).
 * `source` 'env': the credentials came from PAYROLL_CLIENT_ID and PAYROLL_CLIENT_SECRET, which win over the ones saved
 * in Settings: saving others there would be refused again, so the variables are what to change.
 */
export function credentialsFixWords(profile: string | undefined, source?: CredentialsSource): string {
  if (source === 'env') return environmentFixWords(profile);
  return 'open Settings, type the client ID and secret your service provider gave you, save them and test the '
    + 'connection; the files waiting then go on their own. On the command line, run '
    + `\`payroll-uploader credentials set${profile ? ` --env ${profile}` : ''}\` (or set PAYROLL_CLIENT_ID and `
    + 'PAYROLL_CLIENT_SECRET), then start the uploader again';
}
