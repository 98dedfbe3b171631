/**
 * Fault injection: an onRequest hook, installed before the request log and the routes, that delays,
 * fails (500/503 with the error body) or drops (connection destroyed, no answer) requests matching
 * the rules set through /local/v1/faults. /local/v1 itself is never faulted, so faults can always be cleared.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { HttpError } from '../http/http-error';
import { faultStore } from './fault-store';
import { noteDropped } from './request-log';
import { collectRoutes } from './route-catalog';

export function installFaults(app: FastifyInstance, ctx: ServerContext): void {
  // Installed first of the local parts, so the catalog sees every route (the OpenAPI test relies on it).
  collectRoutes(app, ctx);
  const store = faultStore(ctx);

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const rule = store.match(path);
    if (!rule) return;
    if (rule.latencyMs) await sleep(rule.latencyMs);
    // Math.random() is in [0, 1): a rate of 1 always fires and 0 never does, which tests rely on.
    if (rule.dropRate !== undefined && Math.random() < rule.dropRate) {
      ctx.logger.debug(`fault: dropping ${request.method} ${path} (rule ${rule.pathPrefix})`);
      noteDropped(ctx, request, reply);
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (rule.errorRate !== undefined && Math.random() < rule.errorRate) {
      throw new HttpError(rule.errorStatus ?? 503, [`injected fault: the fault rule for ${rule.pathPrefix} failed this request`]);
    }
  });
}
