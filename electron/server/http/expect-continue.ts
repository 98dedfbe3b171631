/**
 * `Expect: 100-continue` (curl sends it with any body over 1 MB, .NET's HttpClient can): by itself Node answers
 * "100 Continue" before any route runs, so a client with a bad token, a forged upload address or a declared body
 * over the limit sent its whole body before it heard the refusal. Here the interim answer is sent only when the
 * body is about to be read: after every check that needs no body (the onRequest hooks: token, scope, upload
 * address), and for a declared length within the route's limit. A refused request gets its final answer instead,
 * and Node then closes the connection (the client may still send the body). An unknown route or method is such a
 * refusal too: its 404 or 405 comes before the body (unknown-routes.ts). Any other expectation is a 417 with the
 * error body, from `refusalBeforeRoute`, not Node's bare 417.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Node's own test of the header (RFC 9110 section 10.1.1 names the one expectation there is). */
export const CONTINUE_RE = /(?:^|\W)100-continue(?:$|\W)/i;

const declaredTooLarge = (request: FastifyRequest) => Number(request.headers['content-length'] ?? 0) > request.routeOptions.bodyLimit;

export function installExpectContinue(app: FastifyInstance): void {
  // With a listener, Node leaves both answers to it; the request then goes through Fastify like any other.
  app.server.on('checkContinue', (req, res) => app.server.emit('request', req, res));
  app.server.on('checkExpectation', (req, res) => app.server.emit('request', req, res));
  app.addHook('preParsing', (request, reply, payload, done) => {
    const expect = request.headers.expect;
    if (expect !== undefined && CONTINUE_RE.test(expect) && !reply.raw.headersSent && !declaredTooLarge(request)) {
      reply.raw.writeContinue();
    }
    done(null, payload);
  });
}
