/** Bearer-token guard of the API routes (an onRequest hook, so it runs before any body is read): 401 for a bad token, 403 for a missing scope. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../../../shared';
import type { ServerContext } from '../context';
import { HttpError } from '../http/http-error';
import { bearerClaims } from './bearer';

declare module 'fastify' {
  // Declaration merging needs an interface here.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    clientId?: string;
  }
}

export function requireScope(ctx: ServerContext, scope: Scope): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const claims = await bearerClaims(ctx, request);
    request.clientId = claims.clientId;
    if (!claims.scopes.includes(scope)) {
      throw new HttpError(403, [`the token does not grant the scope ${scope} that this endpoint needs`]);
    }
  };
}
