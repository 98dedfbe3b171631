/** Guard of /local/v1: any valid access token of a configured client, whatever its scopes; sets request.clientId. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findClient } from '../auth/clients';
import '../auth/require-scope';
import { verifyToken } from '../auth/tokens';
import type { ServerContext } from '../context';
import { HttpError } from '../http/http-error';

const INVALID = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export function requireClient(ctx: ServerContext): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) throw new HttpError(401, ['a bearer token is required: Authorization: Bearer <access token>'], {}, INVALID);
    const claims = await verifyToken(ctx.keys.jwt, match[1]);
    if (!claims || !findClient(ctx.db, claims.clientId)) {
      throw new HttpError(401, ['the bearer token is invalid or expired; request a new one'], {}, INVALID);
    }
    request.clientId = claims.clientId;
  };
}
