import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, getToken, loggedRows, startTestServer } from '../../../test/helpers/local-server';

/** Bodies that are each refused by a route that takes JSON: not JSON, not a type it takes, over 1 MB, compressed. */
const BROKEN_BODIES: [name: string, body: string, headers: Record<string, string>][] = [
  ['invalid JSON', '{"lastName": "Doe",', {}],
  ['an empty JSON body', '', { 'content-type': 'application/json' }],
  ['a text/plain body', 'lastName=Doe', { 'content-type': 'text/plain' }],
  ['a form body', 'a=1&a=2', { 'content-type': 'application/x-www-form-urlencoded' }],
  ['a JSON body over 1 MB', JSON.stringify(['x'.repeat(2 * 1024 * 1024)]), {}],
  ['a gzip body', '[]', { 'content-encoding': 'gzip' }],
];

describe('a request no route takes is answered by its path and method, whatever its body', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
  });
  afterAll(() => server.stop());

  it('a mistyped path is a 404 naming the path, with X-Trace-Id, never a complaint about the body', async () => {
    for (const [method, path] of [['POST', '/law/api/v1/censsus'], ['PUT', '/local/v1/webhok'], ['PATCH', '/nothing'], ['POST', '/law/api/v1/deliveries/']]) {
      for (const [name, body, headers] of BROKEN_BODIES) {
        for (const bearer of [token, undefined]) {
          const res = await api(server.url, bearer, method!, path!, body, headers);
          const what = `${method} ${path} with ${name}${bearer ? '' : ', no token'}`;
          expect([what, res.status]).toEqual([what, 404]);
          expect(res.headers.get('x-trace-id'), what).toMatch(/^[0-9a-f]{32}$/);
          expect(errorBodySchema.parse(res.body).errors, what).toEqual([`no such endpoint: ${method} ${path}`]);
        }
      }
    }
  });

  it('a known path with a method it does not take is its 405 with Allow, whatever the body', async () => {
    const cases = [
      ['PUT', '/law/api/v1/census', 'POST'], ['DELETE', '/law/api/v1/deliveries', 'GET, HEAD'], ['POST', '/uploads/some-file', 'PUT'],
      ['PATCH', '/local/v1/imports', 'GET, HEAD'], ['PUT', '/oauth/v1/access-token', 'POST'],
    ] as const;
    for (const [method, path, allow] of cases) {
      for (const [name, body, headers] of BROKEN_BODIES) {
        const res = await api(server.url, token, method, path, body, headers);
        const what = `${method} ${path} with ${name}`;
        expect([what, res.status, res.headers.get('allow')]).toEqual([what, 405, allow]);
        expect(res.headers.get('x-trace-id'), what).toMatch(/^[0-9a-f]{32}$/);
        const error = errorBodySchema.parse(res.body);
        expect(error.errors, what).toEqual([`${method} is not allowed on ${path}; use ${allow}`]);
        // The token endpoint's errors carry OAuth's error code, its 405 too.
        expect(error.error, what).toBe(path.startsWith('/oauth/') ? 'invalid_request' : undefined);
      }
    }
  });

  it('logs such a request as its 404 or 405, keeping of its body only its size and type', async () => {
    const body = '{"ssn": "123-45-6789", ';
    const notFound = await api(server.url, token, 'POST', '/law/api/v1/recipts', body);
    const notAllowed = await api(server.url, undefined, 'PUT', '/law/api/v1/receipt', body);
    for (const [res, path, status, clientId] of [
      [notFound, '/law/api/v1/recipts', 404, 'test-client'], [notAllowed, '/law/api/v1/receipt', 405, null],
    ] as const) {
      const traceId = res.headers.get('x-trace-id');
      const [row] = await loggedRows(server.url, token, 'limit=50', (r) => r.traceId === traceId);
      expect(row).toMatchObject({ path, status, clientId, requestBody: `<${Buffer.byteLength(body)} bytes of application/json>` });
      expect(JSON.parse(row!.responseBody!)).toEqual(res.body);
    }
  });
});
