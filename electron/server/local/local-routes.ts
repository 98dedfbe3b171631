/**
 * What only the local server offers (docs/service-decisions.md §8): /local/v1/* and /openapi.json.
 * Every /local/v1 endpoint but health takes any valid access token and shows only the caller's own data.
 * Each takes exactly the query parameters its `config.query` names (none without it), as OpenAPI lists them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { deliveryIdSchema, formatIssues } from '../../../shared';
import type { ServerContext } from '../context';
import type { ImportRow } from '../db/imports-repo';
import { toImportResult } from '../db/imports-repo';
import { retireExpiredGrants } from '../files/files-repo';
import { HttpError } from '../http/http-error';
import { requestBaseUrl } from '../http/request-base-url';
import { checkQuery } from '../http/query';
import { faultStore } from './fault-store';
import type { ImportsQuery, RequestsQuery } from './local-schemas';
import { faultRulesSchema, importsQuerySchema, REDELIVER_INTERVAL_MS, requestsQuerySchema, webhookPutSchema } from './local-schemas';
import { openApiDocument } from './openapi';
import { requestLog } from './request-log';
import { requireClient } from './require-client';
import { registerWebhook, removeWebhook, webhookRegistration } from '../webhooks/webhook-registration';
import { findDelivery } from '../webhooks/deliveries-repo';

function parse<S extends z.ZodType>(schema: S, value: unknown, where = ''): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new HttpError(400, formatIssues(parsed.error, where));
  return parsed.data;
}

const clientOf = (request: FastifyRequest) => request.clientId as string;

export function localRoutes(ctx: ServerContext) {
  // Per event (a redelivery's own attempt shares its event, so asking through it counts too), on the monotonic clock
  // (performance.now()): a wall clock set back (NTP correcting a fast clock) must not stretch the 5 s into the jump.
  const lastRedelivery = new Map<string, number>();
  return (app: FastifyInstance) => {
    const auth = { onRequest: requireClient(ctx) };
    // One rule for every route here, those added later too: a query parameter the route does not name is a 400.
    app.addHook('preValidation', checkQuery);

    app.get('/local/v1/health', () => ({ status: 'ok' }));

    app.get('/openapi.json', (request) => openApiDocument(requestBaseUrl(ctx, request)));

    app.get<{ Querystring: ImportsQuery }>('/local/v1/imports', { ...auth, config: { query: importsQuerySchema } }, (request) => {
      retireExpiredGrants(ctx.db, Date.now(), ctx.receiving);
      const q = request.query;
      const where = ['client_id = ?'];
      const params: (string | number)[] = [clientOf(request)];
      for (const key of ['status', 'kind', 'source'] as const) {
        const value = q[key];
        if (value !== undefined) {
          where.push(`${key} = ?`);
          params.push(value);
        }
      }
      // Newest first: the import whose data arrived last (seq, the order they are processed in); one still awaiting
      // its upload counts from its grant.
      const rows = ctx.db.prepare(`SELECT * FROM imports WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`)
        .all(...params, q.limit) as ImportRow[];
      return rows.map(toImportResult);
    });

    app.get<{ Params: { id: string } }>('/local/v1/imports/:id', auth, (request) => {
      retireExpiredGrants(ctx.db, Date.now(), ctx.receiving);
      const row = ctx.db.prepare('SELECT * FROM imports WHERE id = ? AND client_id = ?').get(request.params.id, clientOf(request)) as
        ImportRow | undefined;
      if (!row) throw new HttpError(404, [`no import with id ${request.params.id}`]);
      return toImportResult(row);
    });

    app.get<{ Querystring: RequestsQuery }>('/local/v1/requests', { ...auth, config: { query: requestsQuerySchema } }, (request) => {
      const log = requestLog(ctx);
      if (!log) return [];
      log.flush();
      return log.list(clientOf(request), request.query);
    });

    app.get('/local/v1/webhook', auth, (request) => webhookRegistration(ctx, clientOf(request)));

    app.put('/local/v1/webhook', auth, (request) => {
      const body = parse(webhookPutSchema, request.body === undefined ? undefined : request.body);
      // The same check as --webhook-url; the normalised URL is what is stored, shown and sent to.
      const registered = registerWebhook(ctx, clientOf(request), body.url, body.secret);
      if ('ok' in registered) throw new HttpError(400, [`url ${registered.problem}`]);
      return registered;
    });

    app.delete('/local/v1/webhook', auth, async (request, reply) => {
      removeWebhook(ctx, clientOf(request));
      return reply.code(204).send();
    });

    app.get('/local/v1/faults', auth, (request) => faultStore(ctx).list(clientOf(request)));

    app.put('/local/v1/faults', auth, (request) => {
      const rules = parse(faultRulesSchema, request.body);
      faultStore(ctx).replace(clientOf(request), rules);
      return faultStore(ctx).list(clientOf(request));
    });

    app.delete('/local/v1/faults', auth, async (request, reply) => {
      faultStore(ctx).clear(clientOf(request));
      return reply.code(204).send();
    });

    app.post<{ Params: { id: string } }>('/local/v1/deliveries/:id/redeliver', auth, async (request, reply) => {
      const id = deliveryIdSchema.safeParse(request.params.id);
      if (!id.success) throw new HttpError(400, formatIssues(id.error));
      const known = findDelivery(ctx.db, clientOf(request), id.data);
      if (!known) throw new HttpError(404, [`no delivery attempt with id ${id.data}`]);
      const now = performance.now();
      const last = lastRedelivery.get(known.eventId);
      if (last !== undefined && now - last < REDELIVER_INTERVAL_MS) {
        const wait = Math.ceil((REDELIVER_INTERVAL_MS - (now - last)) / 1000);
        throw new HttpError(429, [`the event of delivery ${id.data} was sent again less than ${REDELIVER_INTERVAL_MS / 1000} s ago; try again in ${wait} s`],
          {}, { 'Retry-After': String(wait) });
      }
      const redelivery = ctx.deliveries.redeliver(clientOf(request), id.data);
      if ('refused' in redelivery) {
        if (redelivery.refused === 'unknown') throw new HttpError(404, [`no delivery attempt with id ${id.data}`]);
        throw new HttpError(409, [
          `no webhook URL is registered for this client, so the event of delivery ${id.data} has nowhere to go; nothing was sent or `
          + 'recorded. Register a webhook URL first (PUT /local/v1/webhook), then ask again',
        ]);
      }
      for (const [event, at] of lastRedelivery) if (now - at >= REDELIVER_INTERVAL_MS) lastRedelivery.delete(event);
      lastRedelivery.set(known.eventId, now);
      return reply.code(202).send(redelivery.attempt);
    });
  };
}
