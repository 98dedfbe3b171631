/** Access tokens: HS256 JWTs signed with the key kept in the data folder's database. */
import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Scope } from '../../../shared';
import { SCOPES } from '../../../shared';

/** `secretVersion` is the client's secret version when the token was issued (claim `sv`). */
export type TokenClaims = { clientId: string; scopes: Scope[]; secretVersion: string };

/** A token issued "in the future" by more than this is refused (only clock adjustments may cause a little). */
export const IAT_TOLERANCE_SECONDS = 5;

export async function issueToken(key: Uint8Array, claims: TokenClaims, ttlSeconds: number): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: claims.scopes.join(' '), sv: claims.secretVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .setJti(randomUUID())
    .sign(key);
}

// Verifying a signature costs about 0.2 ms; a client reuses one token for many requests, so each token's
// verified claims are kept until it expires. Keyed by the whole token string, so nothing unverified is trusted.
const MAX_CACHED = 10_000;
const verified = new WeakMap<Uint8Array, Map<string, { claims: TokenClaims; expMs: number }>>();

function cacheOf(key: Uint8Array) {
  let cache = verified.get(key);
  if (!cache) verified.set(key, (cache = new Map<string, { claims: TokenClaims; expMs: number }>()));
  return cache;
}

/**
 * The claims of a well-signed, unexpired token; undefined for anything else (malformed, expired, wrongly signed,
 * alg none, issued in the future). Whether its client still exists with the same secret is the caller's check.
 */
export async function verifyToken(key: Uint8Array, token: string): Promise<TokenClaims | undefined> {
  const cache = cacheOf(key);
  const hit = cache.get(token);
  if (hit) {
    // jose refuses a token when exp <= now in whole seconds; the same rule here.
    if (Math.floor(Date.now() / 1000) * 1000 < hit.expMs) return hit.claims;
    cache.delete(token);
    return undefined;
  }
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'iat', 'jti'] });
    if (typeof payload.sub !== 'string' || typeof payload.scope !== 'string' || typeof payload.exp !== 'number') return undefined;
    if (typeof payload.iat !== 'number' || payload.iat > Date.now() / 1000 + IAT_TOLERANCE_SECONDS) return undefined;
    if (typeof payload.sv !== 'string') return undefined;
    const scopes = payload.scope.split(' ').filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
    const claims = { clientId: payload.sub, scopes, secretVersion: payload.sv };
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(token, { claims, expMs: payload.exp * 1000 });
    return claims;
  } catch {
    return undefined;
  }
}
