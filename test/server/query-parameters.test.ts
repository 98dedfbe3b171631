/**
 * One rule for query strings (docs/local-server.md "Query parameters"): every endpoint of the local server's own,
 * and the delivery audit, takes exactly the parameters the OpenAPI document lists for it, each once; anything else
 * is a 400 that names it. Empty pieces are no parameters, as URL parsing reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../shared';
import type { TestServer } from '../helpers/local-server';
import { api, getToken, startTestServer } from '../helpers/local-server';

type Operation = { parameters?: { name: string; in: string }[]; responses: Record<string, { description: string }> };
type Document = { paths: Record<string, Record<string, Operation>> };

/** The operations whose query the server checks: the local server's own, and the delivery audit. */
const checked = (doc: Document) => Object.entries(doc.paths)
  .filter(([path]) => path.startsWith('/local/v1/') || path === '/openapi.json' || path === '/law/api/v1/deliveries')
  .flatMap(([path, operations]) => Object.entries(operations).map(([method, op]) => ({
    path, method: method.toUpperCase(), op, concrete: path.replace('{id}', '1'),
    query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
  })));

const NO_NAME = 'a query parameter has no name (a "=" with nothing before it); write each parameter as name=value';

describe('query parameters', () => {
  let server: TestServer;
  let token: string;
  let doc: Document;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
    doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Document;
  });
  afterAll(() => server.stop());

  const errorsOf = (res: { status: number; body: unknown }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    return errorBodySchema.parse(res.body).errors;
  };

  it('every local operation refuses a parameter it does not list, naming it and what it takes, as its 400 says', async () => {
    const operations = checked(doc);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(expect.arrayContaining([
      'GET /local/v1/health', 'GET /openapi.json', 'GET /local/v1/imports', 'GET /local/v1/imports/{id}', 'GET /local/v1/requests',
      'GET /local/v1/webhook', 'PUT /local/v1/webhook', 'DELETE /local/v1/webhook', 'GET /local/v1/faults', 'PUT /local/v1/faults',
      'DELETE /local/v1/faults', 'POST /local/v1/deliveries/{id}/redeliver', 'GET /law/api/v1/deliveries',
    ]));
    for (const { path, method, op, concrete, query } of operations) {
      const errors = errorsOf(await api(server.url, token, method, `${concrete}?zz=1`));
      const takes = query.length === 0 ? 'this endpoint takes no query parameters' : `this endpoint takes ${query.join(', ')}`;
      expect(errors, `${method} ${path}`).toEqual([`unknown query parameter(s): zz; ${takes}`]);
      expect(op.responses['400']?.description, `${method} ${path}`).toMatch(query.length === 0
        ? /any query parameter \(this operation takes none/
        : /a query parameter this operation does not list, one without a name \(`\?=1`\), or one given more than once/);
    }
  });

  it('a refused query changes nothing (DELETE with an unknown parameter keeps the webhook); the token is checked first', async () => {
    expect((await api(server.url, token, 'PUT', '/local/v1/webhook', { url: 'http://127.0.0.1:9/hook' })).status).toBe(200);
    expect(errorsOf(await api(server.url, token, 'DELETE', '/local/v1/webhook?force=1'))).toEqual(
      ['unknown query parameter(s): force; this endpoint takes no query parameters']);
    expect((await api(server.url, token, 'GET', '/local/v1/webhook')).body).toMatchObject({ url: 'http://127.0.0.1:9/hook' });
    expect((await api(server.url, token, 'DELETE', '/local/v1/webhook')).status).toBe(204);
    expect((await api(server.url, undefined, 'GET', '/local/v1/webhook?zz=1')).status).toBe(401);
  });

  it.each([
    ['/local/v1/imports?limit=1&limit=2', ['limit is given more than once; give it once']],
    ['/local/v1/requests?limit=5&status=200&limit=5', ['limit is given more than once; give it once']],
    ['/law/api/v1/deliveries?status=1&status=1', ['status is given more than once; give it once']],
    ['/local/v1/imports?kind=census&kind=receipt&source=json&source=file', ['kind is given more than once; give it once', 'source is given more than once; give it once']],
    ['/local/v1/imports?lim%69t=1&limit=2', ['limit is given more than once; give it once']],
  ])('%s: a repeated parameter is a 400 naming it', async (path, messages) => {
    expect(errorsOf(await api(server.url, token, 'GET', path))).toEqual(messages);
  });

  it.each([
    '/local/v1/imports?=1', '/local/v1/imports?=', '/local/v1/requests?limit=5&=x', '/law/api/v1/deliveries?=1', '/local/v1/health?=1',
    '/local/v1/imports?=1&=2',
  ])('%s: a parameter without a name is a 400 saying so', async (path) => {
    expect(errorsOf(await api(server.url, token, 'GET', path))).toEqual([NO_NAME]);
  });

  it('every kind of problem is named at once', async () => {
    expect(errorsOf(await api(server.url, token, 'GET', '/local/v1/imports?=1&sort=asc&limit=1&limit=2'))).toEqual([
      NO_NAME, 'unknown query parameter(s): sort; this endpoint takes limit, status, kind, source', 'limit is given more than once; give it once',
    ]);
  });

  it('empty pieces are no parameters, as URL parsing reads them, while a piece with an empty name is one', async () => {
    for (const path of [
      '/local/v1/imports?&limit=2', '/local/v1/imports?limit=2&&', '/local/v1/imports?&', '/local/v1/imports?', '/local/v1/health?&',
      '/local/v1/webhook?', '/law/api/v1/deliveries?&&limit=3&', '/local/v1/imports?lim%69t=2',
    ]) expect((await api(server.url, token, 'GET', path)).status, path).toBe(200);
    expect(errorsOf(await api(server.url, token, 'GET', '/local/v1/health?&=&'))).toEqual([NO_NAME]);
  });

  it('the listed parameters are read, on GET and on HEAD, and any other is refused on both', async () => {
    const created = await api(server.url, token, 'POST', '/law/api/v1/census',
      [{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'Q-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]);
    expect(created.status).toBe(201);
    const listed = await api(server.url, token, 'GET', '/local/v1/imports?limit=1&kind=census&source=json');
    expect(listed).toMatchObject({ status: 200, body: [{ id: (created.body as { id: string }).id }] });
    const head = (path: string) => fetch(`${server.url}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
    expect((await head('/local/v1/imports?limit=1&kind=census')).status).toBe(200);
    expect((await head('/local/v1/imports?limit=1&sort=asc')).status).toBe(400);
    expect((await head('/local/v1/health?zz=1')).status).toBe(400);
    expect(errorsOf(await api(server.url, token, 'GET', '/local/v1/imports?limit'))).toEqual(['limit must be a whole number from 1 to 1000']);
  });
});
