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

/** The claims of a valid token; undefined for anything else (malformed, expired, wrongly signed, alg none). */
export async function verifyToken(key: Uint8Array, token: string): Promise<TokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'iat', 'jti'] });
    if (typeof payload.sub !== 'string' || typeof payload.scope !== 'string') return undefined;
    const scopes = payload.scope.split(' ').filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
    return { clientId: payload.sub, scopes };
  } catch {
    return undefined;
  }
}
