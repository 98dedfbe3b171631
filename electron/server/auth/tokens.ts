/** Access tokens: HS256 JWTs signed with the key kept in the data folder's database. */
import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Scope } from '../../../shared';
import { SCOPES } from '../../../shared';

export type TokenClaims = { clientId: string; scopes: Scope[] };

export async function issueToken(key: Uint8Array, clientId: string, scopes: Scope[], ttlSeconds: number): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: scopes.join(' ') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(clientId)
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

/** The claims of a valid token; undefined for anything else (malformed, expired, wrongly signed, alg none). */
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
    const scopes = payload.scope.split(' ').filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
    const claims = { clientId: payload.sub, scopes };
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(token, { claims, expMs: payload.exp * 1000 });
    return claims;
  } catch {
    return undefined;
  }
}
