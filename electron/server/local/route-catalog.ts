/** Every route the server registers (method and URL pattern), so the OpenAPI document can be checked against them. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';

export type RegisteredRoute = { method: string; url: string };

const catalogs = new WeakMap<ServerContext, RegisteredRoute[]>();

/** Starts collecting the routes registered on `app` from now on. */
export function collectRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const routes: RegisteredRoute[] = [];
  catalogs.set(ctx, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
}

/** The routes registered since collectRoutes; HEAD routes Fastify adds by itself are left out. */
export function registeredRoutes(ctx: ServerContext): RegisteredRoute[] {
  return [...(catalogs.get(ctx) ?? [])];
}
