/**
 * How every endpoint that reads a query reads it (docs/local-server.md "Query parameters"): it takes exactly the
 * parameters its schema names, each at most once. The query arrives split as the URL standard's form parsing splits
 * it (Fastify's parser): empty pieces (`?&limit=2`, `limit=2&&`) are no parameters and are passed over, a piece
 * without `=` (`?limit`) is a parameter with an empty value, and a piece with nothing before its `=` (`?=1`) is a
 * parameter without a name, which is refused like an unknown one.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { z } from 'zod';
import { HttpError } from './http-error';

/** A query's schema: an object whose keys are the parameters the endpoint takes, each a string as sent. */
export type QuerySchema = z.ZodObject;

/** The query of an endpoint that takes no parameters. */
export const NO_QUERY: QuerySchema = z.strictObject({});

declare module 'fastify' {
  // Declaration merging needs an interface here.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /** The query parameters the route takes, for checkQuery; without it, none. */
    query?: QuerySchema;
  }
}

/** What an endpoint takes, said after a parameter it does not. */
const takes = (known: string[]) =>
  known.length === 0 ? 'this endpoint takes no query parameters' : `this endpoint takes ${known.join(', ')}`;

/**
 * The query's values, as the schema reads them, or a 400 whose messages name each parameter without a name,
 * unknown parameter, parameter given more than once and bad value.
 */
export function parseQuery<S extends QuerySchema>(schema: S, query: unknown): z.output<S> {
  const raw = (query ?? {}) as Record<string, string | string[]>;
  const unnamed = Object.hasOwn(raw, '');
  const unknown: string[] = [];
  const repeated: string[] = [];
  for (const name of Object.keys(raw)) {
    if (name === '') continue;
    if (!Object.hasOwn(schema.shape, name)) unknown.push(name);
    else if (Array.isArray(raw[name])) repeated.push(name);
  }
  const problems: string[] = [];
  if (unnamed) problems.push('a query parameter has no name (a "=" with nothing before it); write each parameter as name=value');
  if (unknown.length > 0) problems.push(`unknown query parameter(s): ${unknown.join(', ')}; ${takes(Object.keys(schema.shape))}`);
  for (const name of repeated) problems.push(`${name} is given more than once; give it once`);
  if (problems.length > 0) throw new HttpError(400, problems);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new HttpError(400, parsed.error.issues.map((issue) => {
    // The schemas' own messages name their parameter; any other (zod's own wording) is prefixed with it.
    const name = String(issue.path[0] ?? '');
    return name === '' || issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
  }));
}

/**
 * A preValidation hook (after the token check, so a bad token is still a 401 first): the route's query read by its
 * `config.query`, or refused when the route takes none; `request.query` becomes the values read.
 */
export function checkQuery(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  try {
    request.query = parseQuery(request.routeOptions.config.query ?? NO_QUERY, request.query);
    done();
  } catch (error) {
    done(error as Error);
  }
}
