import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, tokenResponseSchema } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, api, getToken, startTestServer } from '../../../test/helpers/local-server';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

async function tokenRequest(url: string, headers: Record<string, string>, body: string) {
  const res = await fetch(`${url}/oauth/v1/access-token`, { method: 'POST', headers, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const census = [{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }];

describe('token endpoint and bearer tokens', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      clients: [
        { ...TEST_CLIENT, scopes: ['census:write', 'receipt:write', 'submissions:write', 'deliveries:read'] },
        { id: 'reader', secret: 'reader-secret', scopes: ['deliveries:read'] },
      ],
    });
  });
  afterAll(() => server.stop());

  it('issues a JWT with the decided claims and no-store caching', async () => {
    const res = await tokenRequest(server.url, { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret), 'content-type': FORM }, 'grant_type=client_credentials');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const token = tokenResponseSchema.parse(res.body);
    expect(token.expires_in).toBe(1200);
    const claims = decodeJwt(token.access_token);
    expect(claims.sub).toBe(TEST_CLIENT.id);
    expect(claims.exp! - claims.iat!).toBe(1200);
    expect(typeof claims.jti).toBe('string');
    expect(String(claims.scope).split(' ')).toContain('census:write');
  });

  it.each([
    ['no credentials', {}],
    ['a wrong secret', { authorization: basic(TEST_CLIENT.id, 'wrong') }],
    ['an unknown client', { authorization: basic('nobody', TEST_CLIENT.secret) }],
    ['a malformed Basic header', { authorization: 'Basic !!!' }],
  ])('answers 401 invalid_client for %s', async (_name, auth: Record<string, string>) => {
    const res = await tokenRequest(server.url, { ...auth, 'content-type': FORM }, 'grant_type=client_credentials');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(errorBodySchema.parse(res.body)).toMatchObject({ statusCode: 401, title: 'Unauthorized', error: 'invalid_client' });
  });

  it('answers 400 for a missing or wrong grant_type, with the OAuth error code', async () => {
    const auth = { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret), 'content-type': FORM };
    const missing = await tokenRequest(server.url, auth, 'scope=x');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    const wrong = await tokenRequest(server.url, auth, 'grant_type=password');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('unsupported_grant_type');
    expect((wrong.body.errors as string[])[0]).toContain('client_credentials');
  });

  it('answers invalid_request to a repeated parameter, a compressed body and another method', async () => {
    const auth = { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret), 'content-type': FORM };
    const repeated = await tokenRequest(server.url, auth, 'grant_type=password&grant_type=client_credentials');
    expect(repeated.status).toBe(400);
    expect(errorBodySchema.parse(repeated.body)).toMatchObject({ error: 'invalid_request', errors: ['grant_type must be sent only once (RFC 6749 section 3.1)'] });
    // The client is checked first, as OAuth orders it.
    expect((await tokenRequest(server.url, { 'content-type': FORM }, 'grant_type=client_credentials&grant_type=client_credentials')).status).toBe(401);

    const gzip = await tokenRequest(server.url, { ...auth, 'content-encoding': 'gzip' }, 'grant_type=client_credentials');
    expect(gzip.status).toBe(415);
    expect(gzip.headers.get('accept-encoding')).toBe('identity');
    expect(errorBodySchema.parse(gzip.body)).toMatchObject({ error: 'invalid_request', errors: ['Content-Encoding gzip is not supported; send the body uncompressed'] });
    expect((await tokenRequest(server.url, { ...auth, 'content-encoding': 'identity' }, 'grant_type=client_credentials')).status).toBe(200);

    const put = await fetch(`${server.url}/oauth/v1/access-token`, { method: 'PUT', headers: auth, body: 'grant_type=client_credentials' });
    expect(put.status).toBe(405);
    expect(errorBodySchema.parse(await put.json()).error).toBe('invalid_request');
  });

  it('checks the credentials before anything about the body: a wrong client or token is a 401 whatever its size, type or coding', async () => {
    const wrong = { authorization: basic(TEST_CLIENT.id, 'wrong') };
    for (const [name, headers, body] of [
      ['a body over 16 KB', { 'content-type': FORM }, 'a'.repeat(20_000)],
      ['a malformed Content-Type', { 'content-type': ';;;' }, 'grant_type=client_credentials'],
      ['a compressed body', { 'content-type': FORM, 'content-encoding': 'gzip' }, 'grant_type=client_credentials'],
    ] as const) {
      const res = await tokenRequest(server.url, { ...wrong, ...headers }, body);
      expect([name, res.status, res.body.error]).toEqual([name, 401, 'invalid_client']);
    }
    const gzip = { 'content-encoding': 'gzip' };
    // A body the route would refuse 400, 413 or 415 once the token passed: without a valid token each is a 401.
    const bodies = [
      ['a compressed body', census, gzip], ['invalid JSON', '[{"lastName": "Doe",', {}], ['an empty body', '', {}],
      ['a body over 5 MB', JSON.stringify(['x'.repeat(6 * 1024 * 1024)]), {}], ['a text/plain body', 'x', { 'content-type': 'text/plain' }],
    ] as const;
    for (const token of [undefined, 'garbage']) {
      for (const [name, body, headers] of bodies) {
        const res = await api(server.url, token, 'POST', '/law/api/v1/census', body, headers);
        expect([token, name, res.status]).toEqual([token, name, 401]);
        expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      }
    }
    // A valid token without the scope is a 403 first too; with it, the coding is refused before the body is read.
    const reader = await getToken(server.url, { id: 'reader', secret: 'reader-secret' });
    expect((await api(server.url, reader, 'POST', '/law/api/v1/census', census, gzip)).status).toBe(403);
    const refused = await api(server.url, await getToken(server.url), 'POST', '/law/api/v1/census', census, gzip);
    expect(refused.status).toBe(415);
    expect(errorBodySchema.parse(refused.body).errors).toEqual(['Content-Encoding gzip is not supported; send the body uncompressed']);
  });

  it('refuses missing, malformed, wrongly signed and alg:none tokens with 401 invalid_token', async () => {
    const good = decodeJwt(await getToken(server.url));
    const forged = await new SignJWT({ scope: 'census:write' })
      .setProtectedHeader({ alg: 'HS256' }).setSubject(TEST_CLIENT.id).setIssuedAt().setExpirationTime('1h').setJti('x')
      .sign(new TextEncoder().encode('not-the-server-key-not-the-server-key'));
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...good })}.`;
    for (const token of [undefined, 'garbage', 'a.b.c', forged, none]) {
      const res = await api(server.url, token, 'POST', '/law/api/v1/census', census);
      expect(res.status, `token ${token}`).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(errorBodySchema.parse(res.body).statusCode).toBe(401);
    }
  });

  it('answers 403 when the token lacks the endpoint scope', async () => {
    const token = await getToken(server.url, { id: 'reader', secret: 'reader-secret' });
    const res = await api(server.url, token, 'POST', '/law/api/v1/census', census);
    expect(res.status).toBe(403);
    expect(errorBodySchema.parse(res.body).errors[0]).toContain('census:write');
  });

  it('refuses an expired token', async () => {
    // Issued in whole seconds, a token of 4 s is good for 3 s at least: time enough for its first use on a loaded machine.
    const short = await startTestServer({ tokenTtlSeconds: 4 });
    try {
      const token = await getToken(short.url);
      expect((await api(short.url, token, 'POST', '/law/api/v1/census', census)).status).toBe(201);
      // Used again once its own expiry (exp, in seconds) has passed.
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number };
      await new Promise((r) => setTimeout(r, exp * 1000 - Date.now() + 100));
      const res = await api(short.url, token, 'POST', '/law/api/v1/census', census);
      expect(res.status).toBe(401);
    } finally {
      await short.stop();
    }
  });
});
