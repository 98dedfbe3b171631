/** Guard of /local/v1: any valid access token of a configured client, whatever its scopes; sets request.clientId. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerClaims } from '../auth/bearer';
import '../auth/require-scope';
import type { ServerContext } from '../context';

export function requireClient(ctx: ServerContext): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.clientId = (await bearerClaims(ctx, request)).clientId;
  };
}
