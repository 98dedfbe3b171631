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

/** RFC 6750 section 3.1: the challenge of a valid token without the scope, naming the scope needed. */
const insufficientScope = (scope: Scope) => ({ 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` });

/**
 * A token may use a scope only while its client holds it: a restart that gives the client fewer scopes (keeping its
 * secret, so its tokens stay valid) takes them from the tokens issued before it too, not only from new ones.
 */
export function requireScope(ctx: ServerContext, scope: Scope): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const claims = await bearerClaims(ctx, request);
    request.clientId = claims.clientId;
    if (!claims.client.scopes.includes(scope)) {
      const since = claims.scopes.includes(scope) ? ' (it was taken away after this token was issued)' : '';
      throw new HttpError(403, [
        `the client ${claims.clientId} does not hold the scope ${scope} that this endpoint needs${since}; the client must be given `
        + 'that scope (the local server takes a client\'s scopes from --client, --clients-file or PAYROLL_SERVER_CLIENTS at start)',
      ], {}, insufficientScope(scope));
    }
    if (!claims.scopes.includes(scope)) {
      throw new HttpError(403, [`the token does not grant the scope ${scope} that this endpoint needs; its client holds it now, so request a new token`], {},
        insufficientScope(scope));
    }
  };
}
