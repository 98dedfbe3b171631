/** POST /oauth/v1/access-token: OAuth 2.0 client credentials (docs/service-decisions.md §5). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StoredClient } from '../auth/clients';
import type { ServerContext } from '../context';
import { createAuthenticator } from '../auth/clients';
import { issueToken } from '../auth/tokens';
import { HttpError } from '../http/http-error';

const FORM_LIMIT = 16 * 1024;

type Credentials = { id: string; secret: string };

/** application/x-www-form-urlencoded decoding of one value (`+` is a space); undefined when not decodable. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/**
 * The credentials of a Basic header, in the order to try them. RFC 6749 section 2.3.1 has clients form-url-encode
 * id and secret before base64; the service spec shows them raw. The raw form comes first, then the decoded one
 * when it differs, so `a+b` is the secret `a+b` for one client and `a b` for a strict one.
 */
function basicCredentials(header: string | undefined): Credentials[] {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return [];
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return [];
  const raw = { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  const id = formDecode(raw.id);
  const secret = formDecode(raw.secret);
  if (id === undefined || secret === undefined || !id || (id === raw.id && secret === raw.secret)) return [raw];
  return [raw, { id, secret }];
}

const invalidClient = (message: string) =>
  new HttpError(401, [message], { error: 'invalid_client' }, { 'WWW-Authenticate': 'Basic realm="payroll", charset="UTF-8"' });

/** The client a token request authenticated as, by request (set by the route's onRequest hook). */
const authenticated = new WeakMap<FastifyRequest, StoredClient>();

/** Form parameters a token request sent more than once (a request may not repeat one), by request. */
const repeatedParams = new WeakMap<FastifyRequest, string[]>();

export function oauthRoutes(ctx: ServerContext) {
  const authenticate = createAuthenticator(ctx.db);
  return (app: FastifyInstance) => {
    // Any body reaches the handler, so the answer follows OAuth's order (client first, 401; then the request,
    // 400 with an OAuth error code) instead of a 415 or a JSON syntax error that no OAuth client understands.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (req, body, done) => {
      const params = [...new URLSearchParams(body as string).keys()];
      const repeated = [...new Set(params.filter((name, i) => params.indexOf(name) !== i))];
      if (repeated.length) repeatedParams.set(req, repeated);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_req, _body, done) => done(null, undefined));

    // The client is checked before the body is read (its credentials are in the header only), so a wrong secret is
    // answered at once: with Expect: 100-continue the body is then never sent.
    const onRequest = async (request: FastifyRequest) => {
      const candidates = basicCredentials(request.headers.authorization);
      if (candidates.length === 0) throw invalidClient('client authentication is required: Authorization: Basic base64(clientId:clientSecret)');
      let client: StoredClient | undefined;
      for (const credentials of candidates) {
        client = await authenticate(credentials.id, credentials.secret);
        if (client) break;
      }
      if (!client) throw invalidClient('unknown client or wrong client secret');
      request.clientId = client.id;
      authenticated.set(request, client);
    };

    app.post('/oauth/v1/access-token', { bodyLimit: FORM_LIMIT, onRequest }, async (request, reply) => {
      const client = authenticated.get(request) as StoredClient;
      const type = request.headers['content-type'] ?? '';
      if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
        throw new HttpError(400, ['the body must be application/x-www-form-urlencoded with grant_type=client_credentials'], { error: 'invalid_request' });
      }
      const repeated = repeatedParams.get(request);
      if (repeated) {
        throw new HttpError(400, [`${repeated.join(', ')} must be sent only once (RFC 6749 section 3.1)`], { error: 'invalid_request' });
      }
      const form = (request.body ?? {}) as Record<string, string>;
      if (!form.grant_type) throw new HttpError(400, ['grant_type is required: grant_type=client_credentials'], { error: 'invalid_request' });
      if (form.grant_type !== 'client_credentials') {
        throw new HttpError(400, [`grant_type ${form.grant_type} is not supported; use client_credentials`], { error: 'unsupported_grant_type' });
      }
      const ttl = ctx.options.tokenTtlSeconds;
      const token = await issueToken(ctx.keys.jwt, { clientId: client.id, scopes: client.scopes, secretVersion: client.secretVersion }, ttl);
      void reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      return { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: client.scopes.join(' ') };
    });
  };
}
