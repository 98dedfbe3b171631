/**
 * A request body that stops arriving is answered 408, not waited for: Fastify (requestTimeout 0) would otherwise
 * hold a census POST whose client declared 100 bytes and sent 1 for ever, with its connection. Every body Fastify
 * reads for a route (JSON, forms) gets this; the upload route reads its body itself and has the same rule there.
 * No listener is put on the body (that could start it flowing before the parser reads it): a timer looks at the
 * connection's byte count instead, and fires only when nothing at all arrived for the whole time.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error';

/** How long a request body may send no byte before it is answered 408 (uploads too). */
export const BODY_STALL_MS = 30_000;

declare module 'fastify' {
  // Declaration merging needs an interface here.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /** The route reads its body itself, with its own stall rule (the upload PUT). */
    streamsBody?: boolean;
  }
}

export function installBodyStall(app: FastifyInstance, stallMs: number): void {
  app.addHook('preParsing', (request, reply, payload, done) => {
    const raw = request.raw;
    // A body that is all there already (the usual small POST) costs nothing more.
    if (raw.complete || request.routeOptions.config.streamsBody === true) {
      done(null, payload);
      return;
    }
    const socket = raw.socket;
    let seen = socket.bytesRead;
    const timer = setTimeout(function look() {
      if (raw.complete || raw.destroyed) return;
      if (socket.bytesRead !== seen) {
        seen = socket.bytesRead;
        timer.refresh();
        return;
      }
      // Handed to the body reader as the stream's error: answered 408 with the error body, then the connection closes.
      raw.emit('error', new HttpError(408, [
        `the request body sent no byte for ${stallMs / 1000} s and was cut off; nothing was kept: send the whole body again`,
      ], {}, { Connection: 'close' }));
    }, stallMs);
    const stop = () => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    // Answered before its body was read (a 413 for a body over the limit, on a connection kept open): nothing reads the
    // body any more, and an error emitted on it then would have no listener and end the whole process.
    reply.raw.once('finish', stop);
    done(null, payload);
  });
}
