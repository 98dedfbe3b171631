/** The bearer token of a request, checked: well signed, unexpired, and its client still there with the same secret. */
import type { FastifyRequest } from 'fastify';
import type { StoredClient } from './clients';
import { findClient } from './clients';
import type { ServerContext } from '../context';
import { HttpError } from '../http/http-error';
import type { TokenClaims } from './tokens';
import { verifyToken } from './tokens';

const INVALID = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

/** A checked token's claims and its client as stored now (its scopes may have changed since the token was issued). */
export type BearerClaims = TokenClaims & { client: StoredClient };

/** The token's claims, or a 401: no token, a bad one, or one whose client was removed or given a new secret. */
export async function bearerClaims(ctx: ServerContext, request: FastifyRequest): Promise<BearerClaims> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) throw new HttpError(401, ['a bearer token is required: Authorization: Bearer <access token>'], {}, INVALID);
  const claims = await verifyToken(ctx.keys.jwt, match[1]);
  if (!claims) throw new HttpError(401, ['the bearer token is invalid or expired; request a new one'], {}, INVALID);
  const client = findClient(ctx.db, claims.clientId);
  if (!client || client.secretVersion !== claims.secretVersion) {
    throw new HttpError(401, ['the bearer token\'s client is no longer configured with the secret it was issued for; request a new token'], {}, INVALID);
  }
  return { ...claims, client };
}
