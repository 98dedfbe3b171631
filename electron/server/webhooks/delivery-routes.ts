/** STUB: GET /law/api/v1/deliveries and /law/api/v1/deliveries/:id. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';

export function deliveryRoutes(_ctx: ServerContext) {
  return (_app: FastifyInstance) => undefined;
}
