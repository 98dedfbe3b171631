/**
 * The base URL a request reached this server at, for the absolute URLs the server answers with (upload addresses,
 * the OpenAPI document's server): the server's scheme with the request's own Host, when that Host names this machine
 * (docs/service-decisions.md §7). A client that talks to https://localhost:P is then sent to
 * https://localhost:P/uploads/..., which its check of a certificate for localhost accepts; built from the bind
 * address it would be https://127.0.0.1:P/..., which that check refuses. Any other Host (a name the server cannot
 * tell is its own, so never a URL that leads off this machine), or none (HTTP/1.0), gets the bind address.
 */
import type { FastifyRequest } from 'fastify';
import { isLoopbackHost } from '../../../shared/loopback';
import type { ServerContext } from '../context';

// host[:port] and nothing else: a name or IPv4 address, or an IPv6 address in brackets.
const HOST_RE = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

export function requestBaseUrl(ctx: ServerContext, request: FastifyRequest): string {
  const host = request.headers.host ?? '';
  const match = HOST_RE.exec(host);
  if (!match?.[1] || !isLoopbackHost(match[1])) return ctx.baseUrl();
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65_535)) return ctx.baseUrl();
  // The URL standard's spelling: `LOCALHOST:80` is http://localhost, `127.1` is 127.0.0.1.
  return new URL(`${ctx.options.tls ? 'https' : 'http'}://${host}`).origin;
}
