/**
 * The secrets of browser mode, three kinds kept apart so that none gives away another:
 * - the token (one per run): scripts send it as `Authorization: Bearer`. It is printed once on standard output and
 *   never travels in an address, a cookie or a process argument.
 * - sign-in codes: the address a browser opens carries one. That address stays in the browser's history and its
 *   address-bar suggestions, so a code signs in once, and only within SIGN_IN_CODE_TTL_MS of being made.
 * - sessions: using a code gives the browser a cookie holding a new session id (neither the code nor the token),
 *   valid until the run ends. The cookie opens the pages only: a browser sends it to every server on the same host,
 *   whatever its port, so any other local web server the browser visits would receive it.
 * - bridge keys: using a code also gives the page a key of its own, which the page keeps in its origin's storage (no
 *   other port can read it) and sends with every bridge call and on the event stream. It opens the bridge; nothing
 *   sends it without the page.
 * Codes and sessions are kept as SHA-256 digests and looked up by digest, so the time a lookup takes says nothing about
 * how close a guess came; the token is compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_BYTES = 32;
/** Long enough for a browser to start and open the address; short, since the address is kept in its history. */
export const SIGN_IN_CODE_TTL_MS = 2 * 60_000;

export const newSecret = (): string => randomBytes(SECRET_BYTES).toString('base64url');

const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** Equal-length digests, so neither the content nor the length of a wrong guess shows in the time taken. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export type SignIns = {
  /** The bearer token for scripts. */
  readonly token: string;
  tokenMatches(given: string): boolean;
  /** A new one-time sign-in code. */
  newCode(): string;
  /**
   * Uses the code up: a new session id (for the cookie) and bridge key (for the page) when it was made here, not used
   * yet and not expired; otherwise undefined.
   */
  redeem(code: string): { session: string; bridgeKey: string } | undefined;
  sessionValid(session: string): boolean;
  bridgeKeyValid(key: string): boolean;
};

export type SignInsOptions = {
  /** Default: a fresh one. */
  token?: string;
  /** The clock codes expire by (tests move it). */
  now?: () => number;
};

export function createSignIns(options: SignInsOptions = {}): SignIns {
  const token = options.token ?? newSecret();
  const now = options.now ?? Date.now;
  /** Digest (hex) of each code not used yet, with when it stops working. */
  const codes = new Map<string, number>();
  const sessions = new Set<string>();
  const bridgeKeys = new Set<string>();
  const key = (secret: string) => digest(secret).toString('hex');
  return {
    token,
    tokenMatches: (given) => sameSecret(given, token),
    newCode() {
      const at = now();
      for (const [code, expires] of codes) if (expires <= at) codes.delete(code);
      const code = newSecret();
      codes.set(key(code), at + SIGN_IN_CODE_TTL_MS);
      return code;
    },
    redeem(code) {
      const k = key(code);
      const expires = codes.get(k);
      codes.delete(k);
      if (expires === undefined || expires <= now()) return undefined;
      const session = newSecret();
      const bridgeKey = newSecret();
      sessions.add(key(session));
      bridgeKeys.add(key(bridgeKey));
      return { session, bridgeKey };
    },
    sessionValid: (session) => sessions.has(key(session)),
    bridgeKeyValid: (bridgeKey) => bridgeKeys.has(key(bridgeKey)),
  };
}
