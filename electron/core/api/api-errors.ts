/** The typed failures of the API client: what went wrong, and whether trying again can help. */

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

  constructor(message: string, options: { code?: string; requestSent: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NetworkError';
    if (options.code !== undefined) this.code = options.code;
    this.requestSent = options.requestSent;
  }
}

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
