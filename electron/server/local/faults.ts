/**
 * Fault injection: an onRequest hook, installed before the request log and the routes, that delays,
 * fails (500/503 with the error body) or drops (connection destroyed, no answer) requests matching
 * the rules set through /local/v1/faults. /local/v1 itself is never faulted, so faults can always be cleared.
 * Rules belong to the client that set them and apply only to its own requests: those bearing its token,
 * its token requests (by the Basic id) and uploads to addresses granted to it.
 *
 * A rule's processingDelayMs is not applied here: the hook leaves it on the request, and the routes that accept an
 * import (import-routes.ts, upload-route.ts) hand the processor a hold with it (processingHold). Without rules the
 * request carries nothing, so those routes pay a property read, no more.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerClaims } from '../auth/bearer';
import type { ServerContext } from '../context';
import type { ProcessingHold } from '../processing/processor';
import { getFile } from '../files/files-repo';
import { routedPath } from '../http/routed-path';
import { HttpError } from '../http/http-error';
import { delayingRuleKey, faultStore } from './fault-store';
import type { FaultRule } from './local-schemas';
import { noteDropped } from './request-log';
import { collectRoutes } from './route-catalog';

declare module 'fastify' {
  // Declaration merging needs an interface here.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    /** Set only when a fault rule with a processingDelayMs (over 0) matched the request: that rule. */
    delayingRule?: FaultRule;
  }
}

/** The hold of an import that `request` created for `clientId`, when a fault rule delays its processing. */
export function processingHold(request: FastifyRequest, clientId: string): ProcessingHold | undefined {
  const rule = request.delayingRule;
  return rule === undefined ? undefined : { until: performance.now() + (rule.processingDelayMs ?? 0), clientId, rule: delayingRuleKey(rule) };
}

/**
 * Whose request this is, as far as fault rules go (unverified Basic ids only fault the sender's own request).
 * An upload is its grant's client's, whatever token it carries; a valid bearer token names the client, which
 * then also owns the request's row in the request log.
 */
async function callerOf(ctx: ServerContext, request: FastifyRequest, path: string): Promise<string | undefined> {
  if (path.startsWith('/uploads/')) return getFile(ctx.db, path.slice('/uploads/'.length))?.client_id;
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  if (/^Bearer\s/i.test(header)) {
    const claims = await bearerClaims(ctx, request).catch(() => undefined);
    if (claims) request.clientId = claims.clientId;
    return claims?.clientId;
  }
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1];
  return basic ? Buffer.from(basic, 'base64').toString('utf8').split(':', 1)[0] : undefined;
}

export function installFaults(app: FastifyInstance, ctx: ServerContext): void {
  // Installed first of the local parts, so the catalog sees every route (the OpenAPI test relies on it).
  collectRoutes(app, ctx);
  const store = faultStore(ctx);

  app.addHook('onRequest', async (request, reply) => {
    if (store.empty()) return;
    const path = routedPath(request.url);
    const caller = await callerOf(ctx, request, path);
    const rule = caller === undefined ? undefined : store.match(caller, path);
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
    if (rule.processingDelayMs) request.delayingRule = rule;
  });
}
