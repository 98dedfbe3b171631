/**
 * Who may talk to the browser-mode server: only the page opened with the printed token. The token (256 random bits)
 * is compared in constant time; the first load trades it for an HttpOnly, SameSite=Strict cookie and redirects to a
 * clean address, so it leaves the address bar and the history. Host and Origin must name this server itself, which
 * shuts out DNS rebinding (a foreign name resolving to 127.0.0.1) and other sites' pages.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_BYTES = 32;

export const newUiToken = (): string => randomBytes(TOKEN_BYTES).toString('base64url');

/** Equal-length digests, so neither the content nor the length of a wrong guess shows in the time taken. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export type UiAuth = {
  readonly token: string;
  readonly cookieName: string;
  /** The Set-Cookie value that replaces the token. */
  cookie(): string;
  /** Whether the Host header names this server (127.0.0.1, localhost or [::1] at our port). */
  hostAllowed(request: IncomingMessage): boolean;
  /** A present Origin must be this server; browsers send it on every POST and on cross-site requests. */
  originAllowed(request: IncomingMessage): boolean;
  /** The cookie or an Authorization: Bearer header carries the token. */
  authenticated(request: IncomingMessage): boolean;
  /** The `token` query parameter of the first load, when it is right. */
  tokenInQuery(url: URL): boolean;
};

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export function createUiAuth(port: number, token: string = newUiToken()): UiAuth {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const origins = new Set([...hosts].map((host) => `http://${host}`));
  // Cookies are not kept apart by port: the name carries it, so two ui servers on one machine do not clash.
  const cookieName = `payroll_ui_${port}`;
  return {
    token,
    cookieName,
    cookie: () => `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`,
    hostAllowed: (request) => hosts.has((request.headers.host ?? '').toLowerCase()),
    originAllowed(request) {
      const origin = request.headers.origin;
      if (origin !== undefined && !origins.has(origin.toLowerCase())) return false;
      return request.headers['sec-fetch-site'] !== 'cross-site';
    },
    authenticated(request) {
      const fromCookie = cookieValue(request.headers.cookie, cookieName);
      if (fromCookie !== undefined) return sameSecret(fromCookie, token);
      const header = request.headers.authorization;
      if (header?.startsWith('Bearer ')) return sameSecret(header.slice('Bearer '.length), token);
      return false;
    },
    tokenInQuery(url) {
      const given = url.searchParams.get('token');
      return given !== null && sameSecret(given, token);
    },
  };
}
