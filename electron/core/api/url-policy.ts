/** Which addresses the client talks to: HTTPS anywhere, plain HTTP only to this machine (docs/service-decisions.md §7). */
import { isLoopbackHost, loopbackSpellingHint } from '../../../shared/loopback';
import { InsecureUrlError } from './api-errors';

/** Parses `raw` and throws InsecureUrlError unless it is https, or http to a loopback host. */
export function checkUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InsecureUrlError(`${what} is not a valid URL: ${JSON.stringify(raw)}`);
  }
  if (url.username || url.password) throw new InsecureUrlError(`${what} must not contain a user name or password`);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return url;
    const hint = loopbackSpellingHint(url.hostname);
    throw new InsecureUrlError(`${what} ${url.origin} uses plain http; only https is allowed except to this machine (127.0.0.1, ::1, localhost)${hint ? `; ${hint}` : ''}`);
  }
  throw new InsecureUrlError(`${what} must be an https URL, not ${url.protocol.replace(/:$/, '')}`);
}

/** `base` (which may carry a path prefix) joined with an absolute API path. */
export function joinUrl(base: URL, path: string): URL {
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}

/** For messages: origin and path, never the query (upload addresses carry their signature there). */
export function describeUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
