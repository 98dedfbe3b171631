/** Bearer-token guard of the API routes (an onRequest hook, so it runs before any body is read): 401 for a bad token, 403 for a missing scope. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../../../shared';
import type { ServerContext } from '../context';
import { HttpError } from '../http/http-error';
import { verifyToken } from './tokens';

declare module 'fastify' {
  // Declaration merging needs an interface here.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    clientId?: string;
  }
}

const INVALID = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export function requireScope(ctx: ServerContext, scope: Scope): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) throw new HttpError(401, ['a bearer token is required: Authorization: Bearer <access token>'], {}, INVALID);
    const claims = await verifyToken(ctx.keys.jwt, match[1]);
    if (!claims) throw new HttpError(401, ['the bearer token is invalid or expired; request a new one'], {}, INVALID);
    request.clientId = claims.clientId;
    if (!claims.scopes.includes(scope)) {
      throw new HttpError(403, [`the token does not grant the scope ${scope} that this endpoint needs`]);
    }
  };
}
