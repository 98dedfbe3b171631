/**
 * Requests no route takes: a 404, or a 405 with Allow where the path takes other methods. They are answered from an
 * onRequest hook, before any body is read: Fastify's not-found handler reads and parses the body like a route's, so
 * a mistyped path (`POST /law/api/v1/censsus`) with a broken JSON body was answered 400 "not valid JSON", one over
 * 1 MB 413 and a compressed one 415, all of which send an integrator looking at the body instead of the path.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './http-error';
import { routedPath } from './routed-path';

type KnownRoute = { pattern: RegExp; method: string };

function routePattern(url: string): RegExp {
  const escaped = url.split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // Exact: Fastify does not ignore a trailing slash, so `/census/` is an unknown route (404), not a 405 saying "use POST".
  return new RegExp(`^${escaped.join('/')}$`);
}

/** The 405 (with Allow) when the path takes other methods, else the 404; the error handler writes the body. */
function unknownRouteError(routes: KnownRoute[], request: FastifyRequest): HttpError {
  const path = request.url.split('?', 1)[0] ?? '';
  // Matched as the router reads it: `/oauth/v1/%61ccess-token` is the token endpoint's path, and gets its 405.
  const routed = routedPath(request.url);
  const allowed = [...new Set(routes.filter((r) => r.pattern.test(routed)).map((r) => r.method))];
  // Fastify answers HEAD wherever it answers GET, so Allow names it too (RFC 9110 section 10.2.1).
  if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.push('HEAD');
  if (allowed.length > 0) {
    return new HttpError(405, [`${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`], {}, { Allow: allowed.join(', ') });
  }
  return new HttpError(404, [`no such endpoint: ${request.method} ${path}`]);
}

/**
 * Paths are exact, and a route parameter is never empty: the router would take `/law/api/v1/deliveries/` for
 * `/law/api/v1/deliveries/:id` with the id '' (and answer that the id must be a whole number), so such a request is
 * answered as the unknown route it is.
 */
const leavesParameterEmpty = (request: FastifyRequest): boolean => {
  const params = request.params as Record<string, unknown> | undefined;
  return params !== undefined && params !== null && Object.values(params).some((value) => value === '');
};

/**
 * Install before the routes are registered (they are collected as they are), and after every other onRequest hook
 * but the routes' own (faults, the request log): an unknown route is faulted and logged like any request, and
 * answered before any token check and before its body (its size, content type, encoding or JSON) is looked at.
 */
export function installUnknownRoutes(app: FastifyInstance): void {
  const routes: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.push({ pattern: routePattern(route.url), method });
  });
  app.addHook('onRequest', (request, _reply, done) => {
    // is404: the router found no route for this method and path, and handed the request to the not-found handler.
    done(request.is404 || leavesParameterEmpty(request) ? unknownRouteError(routes, request) : undefined);
  });
  // Reached only if the hook above was not (every request runs it): the same answer.
  app.setNotFoundHandler((request, reply) => {
    void reply.send(unknownRouteError(routes, request));
  });
}
