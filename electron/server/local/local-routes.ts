/** STUB: /local/v1/* and /openapi.json. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';

export function localRoutes(_ctx: ServerContext) {
  return (_app: FastifyInstance) => undefined;
}
