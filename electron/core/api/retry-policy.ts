/** When a failed call is tried again, and after how long: exponential backoff with full jitter, Retry-After honoured. */
import { backoffMs } from '../../lib/backoff';
import type { Logger } from '../../lib/logger';
import { AbortError, ApiError, NetworkError } from './api-errors';
import { isTlsFailure } from './http-transport';

export type RetryOptions = { retries: number; baseDelayMs: number; maxDelayMs: number };
export const DEFAULT_RETRY: RetryOptions = { retries: 4, baseDelayMs: 500, maxDelayMs: 15_000 };

/**
 * `safe`: sending twice does no harm (token, grants, GETs): network errors, 5xx and 429 are retried.
 * `unsafe`: a second send may duplicate (census/receipt POST): only when the request surely never
 * arrived, or the service's answer says it was not taken (429, 503). Not a 502 or 504: those come from a gateway or
 * proxy between the app and the service (the service itself answers 500 when it fails), which may well have passed
 * the request on; a 504 most often means the service took it and answered too late.
 */
export type RetryMode = 'safe' | 'unsafe';

const NOT_TAKEN_STATUSES = new Set([429, 503]);

/**
 * After this error of an `unsafe` request, may the service have done what it asked? Yes when the request went out and
 * no answer came, when the answer is a server failure that does not say it was not taken (a 500: the service may have
 * stored the records before it failed; a gateway's 502 or 504), and when it is a success this client could not read. A
 * refusal (4xx) and the answers that say the request was not taken (429, 503) leave nothing behind.
 */
export function mayHaveBeenTaken(error: unknown): boolean {
  if (error instanceof NetworkError) return error.requestSent;
  if (error instanceof ApiError) {
    return (error.status >= 200 && error.status < 300) || (error.status >= 500 && error.status !== 501 && !NOT_TAKEN_STATUSES.has(error.status));
  }
  return false;
}

export function isRetryable(error: unknown, mode: RetryMode): boolean {
  if (error instanceof NetworkError) {
    if (isTlsFailure(error.code)) return false;
    return mode === 'safe' || !error.requestSent;
  }
  if (error instanceof ApiError) {
    if (error.name === 'UnexpectedResponseError') return false;
    return mode === 'safe' ? error.status === 429 || error.status >= 500 : NOT_TAKEN_STATUSES.has(error.status);
  }
  return false;
}

/** Full jitter: a random delay in [0, min(max, base * 2^attempt)) (electron/lib/backoff.ts). */
export function backoffDelay(attempt: number, options: RetryOptions, random: () => number = Math.random): number {
  return backoffMs(attempt, { baseMs: options.baseDelayMs, maxMs: options.maxDelayMs, jitter: 'full' }, random);
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Errors that must reach the caller untouched, whatever their type (e.g. a failed token request inside a call). */
const final = new WeakSet<object>();
export function doNotRetry<T extends object>(error: T): T {
  final.add(error);
  return error;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries are used up. A Retry-After longer than
 * maxDelayMs ends the retries at once: the error (with retryAfterMs) goes to the caller, which can schedule
 * a later try rather than block here.
 */
export async function withRetries<T>(
  what: string, mode: RetryMode, options: RetryOptions, logger: Logger | undefined, attempt: () => Promise<T>,
  /** Stops the waiting between tries (an AbortError): the caller is stopping. */
  signal?: AbortSignal,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (typeof error === 'object' && error !== null && final.has(error)) throw error;
      if (n >= options.retries || !isRetryable(error, mode)) throw error;
      const retryAfter = error instanceof ApiError ? error.retryAfterMs : undefined;
      if (retryAfter !== undefined && retryAfter > options.maxDelayMs) throw error;
      const delay = retryAfter ?? backoffDelay(n, options);
      logger?.warn(`${what}: ${(error as Error).message}; retry ${n + 1} of ${options.retries} in ${delay} ms`);
      await pause(delay, signal);
    }
  }
}

/** Waits `ms`, or until `signal` aborts (then an AbortError). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
