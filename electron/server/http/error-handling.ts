/** Every error leaves as the spec's error body; every response carries X-Trace-Id; 404 vs 405. */
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { errorBody } from '../../../shared';
import type { Logger } from '../../lib/logger';
import { HttpError } from './http-error';

export const newTraceId = () => randomUUID().replaceAll('-', '');

const FASTIFY_STATUS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'the request body is larger than this endpoint accepts'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported Content-Type'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'the request body is empty'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'the Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_TYPE: [415, 'the Content-Type header is empty'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'the Content-Type header is not valid'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'the body is not valid JSON'],
};

function routePattern(url: string): RegExp {
  const escaped = url.split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // Exact: Fastify does not ignore a trailing slash, so `/census/` is an unknown route (404), not a 405 saying "use POST".
  return new RegExp(`^${escaped.join('/')}$`);
}

export function installErrorHandling(app: FastifyInstance, logger: Logger): void {
  const routes: { pattern: RegExp; method: string }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.push({ pattern: routePattern(route.url), method });
  });

  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Trace-Id', request.id);
    done();
  });

  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      void reply.code(error.statusCode).headers(error.headers);
      // Every 500 carries its trace id in the body, also one a route or an injected fault chose to answer.
      const extra = error.statusCode === 500 ? { traceId: request.id, ...error.extra } : error.extra;
      return errorBody(error.statusCode, error.messages, extra);
    }
    const fe = error as FastifyError;
    const known = fe.code ? FASTIFY_STATUS[fe.code] : undefined;
    if (known) {
      const type = request.headers['content-type'];
      const message = known[0] === 415 && type ? `${known[1]} ${type}; this endpoint takes application/json (or a +json type)` : known[1];
      return reply.code(known[0]).send(errorBody(known[0], [message]));
    }
    if (error instanceof SyntaxError || (fe.statusCode === 400 && /JSON/i.test(error.message))) {
      return reply.code(400).send(errorBody(400, [`the body is not valid JSON: ${error.message}`]));
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.code(fe.statusCode).send(errorBody(fe.statusCode, [error.message]));
    }
    logger.error(`trace ${request.id}: ${request.method} ${request.url}: ${error.stack ?? error.message}`);
    return reply
      .code(500)
      .send(errorBody(500, [`unexpected server failure; contact support with trace id ${request.id}`], { traceId: request.id }));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    // Fastify answers HEAD wherever it answers GET, so Allow names it too (RFC 9110 section 10.2.1).
    if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.push('HEAD');
    if (allowed.length > 0) {
      return reply.code(405).header('Allow', allowed.join(', ')).send(errorBody(405, [`${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`]));
    }
    return reply.code(404).send(errorBody(404, [`no such endpoint: ${request.method} ${path}`]));
  });
}
