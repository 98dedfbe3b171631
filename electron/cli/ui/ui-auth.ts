/**
 * Who may talk to the browser-mode server: a browser signed in with a one-time address, or a script with the run's
 * token (see sign-ins.ts). The address's code is traded for an HttpOnly, SameSite=Strict cookie holding a new session
 * id, which opens the pages, and a bridge key the page keeps, which opens the bridge: a browser sends the cookie to any
 * server on 127.0.0.1, whatever its port, so the cookie alone must not be enough to call the engine. Host and Origin
 * must name this server itself, which shuts out DNS rebinding (a foreign name resolving to 127.0.0.1) and other sites'
 * pages.
 */
import type { IncomingMessage } from 'node:http';
import { BRIDGE_HTTP } from '../../../shared/bridge';
import type { SignIns } from './sign-ins';

export type UiAuth = {
  readonly cookieName: string;
  /** The Set-Cookie value that carries a session. */
  cookie(session: string): string;
  /** Whether the Host header names this server (127.0.0.1, localhost or [::1] at our port). */
  hostAllowed(request: IncomingMessage): boolean;
  /** A present Origin must be this server; browsers send it on every POST and on cross-site requests. */
  originAllowed(request: IncomingMessage): boolean;
  /**
   * originAllowed, except that the browser opening a sign-in address as a page may come from another site: `npm start`
   * sends it there from a file:// page, which the browser counts as cross-site. Without an unused code it does nothing.
   */
  signInAllowed(request: IncomingMessage): boolean;
  /** For the pages: a session cookie, or an Authorization: Bearer header with the token. */
  authenticated(request: IncomingMessage): boolean;
  /**
   * For the bridge's methods and events: the page's bridge key (in its header, or in the event stream's query), or an
   * Authorization: Bearer header with the token. The cookie is not enough.
   */
  bridgeAllowed(request: IncomingMessage, url: URL): boolean;
  /** The Authorization: Bearer header carries the token (a cookie is not enough). */
  bearer(request: IncomingMessage): boolean;
};

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export function createUiAuth(port: number, signIns: SignIns): UiAuth {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const origins = new Set([...hosts].map((host) => `http://${host}`));
  // Cookies are not kept apart by port: the name carries it, so two ui servers on one machine do not clash.
  const cookieName = `payroll_ui_${port}`;
  const ownOrigin = (request: IncomingMessage) => request.headers.origin === undefined || origins.has(request.headers.origin.toLowerCase());
  const bearer = (request: IncomingMessage) => {
    const header = request.headers.authorization;
    return header?.startsWith('Bearer ') === true && signIns.tokenMatches(header.slice('Bearer '.length));
  };
  return {
    cookieName,
    cookie: (session) => `${cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`,
    hostAllowed: (request) => hosts.has((request.headers.host ?? '').toLowerCase()),
    originAllowed: (request) => ownOrigin(request) && request.headers['sec-fetch-site'] !== 'cross-site',
    signInAllowed(request) {
      if (!ownOrigin(request)) return false;
      if (request.headers['sec-fetch-site'] !== 'cross-site') return true;
      return request.headers['sec-fetch-mode'] === 'navigate' && request.headers['sec-fetch-dest'] === 'document';
    },
    authenticated(request) {
      const session = cookieValue(request.headers.cookie, cookieName);
      return (session !== undefined && signIns.sessionValid(session)) || bearer(request);
    },
    bridgeAllowed(request, url) {
      const header = request.headers[BRIDGE_HTTP.keyHeader];
      const key = typeof header === 'string' ? header
        : url.pathname === BRIDGE_HTTP.events ? url.searchParams.get(BRIDGE_HTTP.keyParam) ?? undefined : undefined;
      return (key !== undefined && signIns.bridgeKeyValid(key)) || bearer(request);
    },
    bearer,
  };
}
