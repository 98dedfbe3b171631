/**
 * The JSON body parser of every JSON endpoint. The bytes must be UTF-8: Fastify's own parser decodes with
 * replacement characters, so a batch in Latin-1 was accepted with its names garbled (a CSV with the same
 * bytes is refused). A `__proto__` key is refused by name, as the record schemas never hold one. A number
 * written with more digits than a double holds (`12.3400000000000000001`, read as 12.34) or beyond its range
 * (`1e400`) is refused by its text: once parsed, it could no longer be told from the number it was rounded to.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inexactNumberProblem } from '../../../shared';
import { HttpError } from './http-error';

// `__proto__` written plainly or with \u escapes, as an object key.
const PROTO_KEY_RE = /"(?:_|\\u005[fF]){2}(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[fF])(?:t|\\u0074)(?:o|\\u006[fF])(?:_|\\u005[fF]){2}"\s*:/;

/** The parsed value of a JSON body, or a 400 naming what is wrong with it. */
export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) throw new HttpError(400, ['the request body is empty; send a JSON value']);
  if (!isUtf8(body)) throw new HttpError(400, ['the body is not valid UTF-8 text; send the JSON encoded as UTF-8']);
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, [`the body is not valid JSON: ${(error as Error).message}`]);
  }
  // The cheap test first: a 5 MB batch is scanned by the regular expression only when it may hold the key.
  if ((text.includes('proto') || text.includes('\\u')) && PROTO_KEY_RE.test(text)) {
    throw new HttpError(400, ['the body must not use the key __proto__ (it is no field of any record)']);
  }
  // Likewise for a number that cannot be held exactly (shared/inexact-numbers.ts: cheap scans first).
  const inexact = inexactNumberProblem(text);
  if (inexact) throw new HttpError(400, [inexact]);
  return value;
}

const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/** The bytes of a request's JSON body as received (a batch kept until processing is stored as sent, not re-serialised). */
export const rawJsonBody = (request: FastifyRequest): Buffer | undefined => rawBodies.get(request);

/** Installs the parser for application/json and every +json type. */
export function installJsonBody(app: FastifyInstance): void {
  const parse = (request: FastifyRequest, body: Buffer, done: (error: Error | null, value?: unknown) => void) => {
    try {
      const value = parseJsonBody(body);
      rawBodies.set(request, body);
      done(null, value);
    } catch (error) {
      done(error as Error);
    }
  };
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parse);
  app.addContentTypeParser(/^application\/[a-z0-9.-]+\+json\s*(;.*)?$/i, { parseAs: 'buffer' }, parse);
}
