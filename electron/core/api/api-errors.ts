/** The typed failures of the API client: what went wrong, and whether trying again can help. */
import type { CredentialsSource } from '../credentials/resolve-credentials';

export type ApiErrorInit = {
  status: number;
  title: string;
  messages: string[];
  /** `METHOD /path` of the failed request (never its query: upload addresses carry a signature there). */
  request: string;
  traceId?: string;
  oauthError?: string;
  /** The server's Retry-After, when it gave one. */
  retryAfterMs?: number;
};

/** An HTTP answer outside 2xx, carrying the service's error body (title, errors[]) and X-Trace-Id. */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly messages: string[];
  readonly request: string;
  readonly traceId?: string;
  readonly oauthError?: string;
  readonly retryAfterMs?: number;
  /** True for answers that may go away by themselves: 408, 429 and 5xx. */
  readonly retryable: boolean;

  constructor(init: ApiErrorInit) {
    const trace = init.traceId ? ` (trace id ${init.traceId})` : '';
    super(`${init.request} failed: ${init.status} ${init.title}: ${init.messages.join('; ') || 'no details given'}${trace}`);
    this.name = 'ApiError';
    this.status = init.status;
    this.title = init.title;
    this.messages = init.messages;
    this.request = init.request;
    if (init.traceId !== undefined) this.traceId = init.traceId;
    if (init.oauthError !== undefined) this.oauthError = init.oauthError;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.retryable = init.status === 408 || init.status === 429 || init.status >= 500;
  }
}

/** A 2xx answer whose body does not match the contract in shared/ (or is not JSON at all). */
export class UnexpectedResponseError extends ApiError {
  constructor(init: Omit<ApiErrorInit, 'title'>) {
    super({ ...init, title: 'Unexpected Response' });
    this.name = 'UnexpectedResponseError';
  }
}

/**
 * No HTTP answer: the connection failed or broke. `requestSent` is false only when the request surely
 * never reached the server (refused, DNS, connect or TLS failure), so sending again cannot duplicate it.
 */
export class NetworkError extends Error {
  readonly code?: string;
  readonly requestSent: boolean;
  /** What went wrong without the request it was about ("connection refused"), for words of the clerk's. */
  readonly reason?: string;
  /** Where it was sent: the service's origin, and the proxy it went through ("http://127.0.0.1:9"). */
  readonly address?: string;

  constructor(message: string, options: { code?: string; requestSent: boolean; reason?: string; address?: string; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NetworkError';
    if (options.code !== undefined) this.code = options.code;
    this.requestSent = options.requestSent;
    if (options.reason !== undefined) this.reason = options.reason;
    if (options.address !== undefined) this.address = options.address;
  }
}

/*
 * What the API client knows of a failed call beyond the error's type, told apart for the clerk (failure-words.ts):
 * whether it failed while signing in (the token request, before the call's own request went out), and whether the
 * service may have done what a call that is not safe to repeat (a census or receipt POST) asked all the same.
 */
const signInFailures = new WeakSet<object>();
const unknownOutcomes = new WeakSet<object>();

/** Marks `error` as the failure of the token request a call made first: the call's own request never went out. */
export function signInFailure<T extends object>(error: T): T {
  signInFailures.add(error);
  return error;
}
export const isSignInFailure = (error: unknown): boolean => typeof error === 'object' && error !== null && signInFailures.has(error);

/** The client a token request was made as, and where its credentials came from: never the secret. */
export type SentCredentials = { clientId: string; source?: CredentialsSource };
const sentWith = new WeakMap<object, SentCredentials>();

/**
 * Marks `error`, the failure of a token request, with the client it was made as. What to do about a refusal depends on
 * where those credentials came from: environment variables win over the ones saved in Settings, so saving others there
 * would change nothing (failure-words.ts).
 */
export function sentAs<T extends object>(error: T, credentials: SentCredentials): T {
  sentWith.set(error, credentials);
  return error;
}
/** The client a failed token request was made as (sentAs), if `error` is one. */
export const credentialsSentWith = (error: unknown): SentCredentials | undefined =>
  (typeof error === 'object' && error !== null ? sentWith.get(error) : undefined);

/**
 * Marks `error` as one after which the service may hold what a census or receipt POST sent: the request went out
 * and no answer came, the answer was a failure that does not say it was not taken (a 500), or it was a success
 * this client could not read. Sending the records again could import them twice.
 */
export function outcomeUnknown<T extends object>(error: T): T {
  unknownOutcomes.add(error);
  return error;
}
export const isOutcomeUnknown = (error: unknown): boolean => typeof error === 'object' && error !== null && unknownOutcomes.has(error);

/** A URL the client refuses to talk to: plain HTTP to a non-loopback host, another scheme, or embedded credentials. */
export class InsecureUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InsecureUrlError';
  }
}

/** The caller's AbortSignal ended the request. */
export class AbortError extends Error {
  constructor(message = 'the request was aborted') {
    super(message);
    this.name = 'AbortError';
  }
}

/** The file to upload is not the size it was when it was hashed: it changed, so its checksum is stale. */
export class FileChangedError extends Error {
  constructor(readonly filePath: string, expected: number, actual: number | undefined) {
    super(`${filePath} changed since it was hashed: expected ${expected} bytes, ${actual === undefined ? 'read a different amount' : `it now has ${actual}`}`);
    this.name = 'FileChangedError';
  }
}

/** A PUT answered 2xx, but its ETag names another MD5 than the one the address was granted for: not proof of arrival. */
export class UploadMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadMismatchError';
  }
}
