/** GET /law/api/v1/deliveries and /law/api/v1/deliveries/:id: the client's own delivery audit (docs/service-decisions.md §6). */
import type { FastifyInstance } from 'fastify';
import type { DeliveriesQuery } from '../../../shared';
import { deliveriesQuerySchema, deliveryIdSchema } from '../../../shared';
import { requireScope } from '../auth/require-scope';
import type { ServerContext } from '../context';
import { HttpError } from '../http/http-error';
import { parseQuery } from '../http/query';
import { findDelivery, listDeliveries } from './deliveries-repo';

export { listDeliveries, toDeliveryAttempt } from './deliveries-repo';

/** The audit query, or a 400 naming every bad, unknown or repeated parameter (read as every query is read). */
export const parseDeliveriesQuery = (query: unknown): DeliveriesQuery => parseQuery(deliveriesQuerySchema, query);

export function deliveryRoutes(ctx: ServerContext) {
  return (app: FastifyInstance) => {
    const onRequest = requireScope(ctx, 'deliveries:read');

    app.get('/law/api/v1/deliveries', { onRequest }, (request) => {
      return listDeliveries(ctx.db, request.clientId as string, parseDeliveriesQuery(request.query));
    });

    app.get<{ Params: { id: string } }>('/law/api/v1/deliveries/:id', { onRequest }, (request) => {
      const id = deliveryIdSchema.safeParse(request.params.id);
      if (!id.success) throw new HttpError(400, id.error.issues.map((issue) => issue.message));
      const attempt = findDelivery(ctx.db, request.clientId as string, id.data);
      if (!attempt) throw new HttpError(404, [`no delivery attempt ${id.data}`]);
      return attempt;
    });
  };
}
