/**
 * The OpenAPI document is the truth: a validating proxy built from it (ajv on each parameter's schema, values
 * parsed as their declared type) flags exactly the requests the server refuses with 400.
 */
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/local-server';
import { getToken, startTestServer } from '../helpers/local-server';

type Parameter = { name: string; in: 'query' | 'path'; required: boolean; schema: Record<string, unknown> };
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[]; responses: Record<string, unknown> }>> };

/** The proxy's check of one operation's parameters: the problems it finds, none when it lets the request pass. */
function proxyFor(doc: Document, path: string, method: string): (values: Record<string, string>) => string[] {
  const ajv = new Ajv2020({ strict: false });
  const parameters = doc.paths[path]?.[method]?.parameters ?? [];
  const checks = parameters.map((p) => ({ ...p, validate: ajv.compile(p.schema) }));
  return (values) => {
    const problems: string[] = [];
    for (const p of checks) {
      const raw = Object.hasOwn(values, p.name) ? values[p.name] : undefined;
      if (raw === undefined) {
        if (p.required) problems.push(`${p.name} is required`);
        continue;
      }
      // A string of a JSON integer is parsed as one; anything else stays a string (and fails an integer schema).
      const value = p.schema.type === 'integer' && /^-?(0|[1-9]\d*)$/.test(raw) ? Number(raw) : raw;
      if (!p.validate(value)) problems.push(`${p.name}: ${JSON.stringify(p.validate.errors)}`);
    }
    return problems;
  };
}

// Not generated: '-0' and leading zeros ('007'), which proxies read differently from each other; the server
// refuses '-0' and reads '007' as 7.
const VALUES = fc.oneof(
  fc.integer({ min: -3, max: 1_002 }).map(String),
  fc.constantFrom('', 'abc', '1.5', '1e2', '4294967296', '99999999999', '999999999999999', '1000000000000000', '0'),
);

describe('the OpenAPI document against the running server', () => {
  let server: TestServer;
  let token: string;
  let doc: Document;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
    doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Document;
  });
  afterAll(() => server.stop());

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  it.each([
    ['/law/api/v1/deliveries', ['status', 'maxRetries', 'limit']],
    ['/local/v1/imports', ['limit']],
    ['/local/v1/requests', ['limit', 'status']],
  ] as const)('query parameters of %s: the proxy flags exactly what the server refuses', async (path, names) => {
    const proxy = proxyFor(doc, path, 'get');
    await fc.assert(fc.asyncProperty(fc.dictionary(fc.constantFrom(...names), VALUES), async (values) => {
      const res = await get(`${path}?${new URLSearchParams(values).toString()}`);
      await res.arrayBuffer();
      const flagged = proxy(values);
      expect(res.status === 400, `${path} ${JSON.stringify(values)} -> ${res.status}; proxy: ${flagged.join('; ')}`).toBe(flagged.length > 0);
    }), { numRuns: 150 });
  });

  it.each([
    ['/law/api/v1/deliveries/{id}', 'get', (id: string) => get(`/law/api/v1/deliveries/${id}`)],
    ['/local/v1/deliveries/{id}/redeliver', 'post', (id: string) =>
      fetch(`${server.url}/local/v1/deliveries/${id}/redeliver`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })],
  ] as const)('the id of %s: the proxy flags exactly what the server refuses', async (path, method, send) => {
    const proxy = proxyFor(doc, path, method);
    await fc.assert(fc.asyncProperty(VALUES.filter((v) => v !== ''), async (id) => {
      const res = await send(encodeURIComponent(id));
      await res.arrayBuffer();
      const flagged = proxy({ id });
      expect(res.status === 400, `${path} id=${id} -> ${res.status}; proxy: ${flagged.join('; ')}`).toBe(flagged.length > 0);
    }), { numRuns: 100 });
  });

  it('lists the 405 of every path, the refusals before any route, and describes the upload\'s 200 body', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        // 408, 414 and 431 come before the router, so any operation can answer them (hostile-input.test.ts).
        for (const status of ['405', '408', '414', '431']) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
      }
    }
    expect((doc.paths['/uploads/{fileId}']?.put?.responses['408'] as { description: string }).description).toMatch(/no byte for 30 s/);
    const put = doc.paths['/uploads/{fileId}']?.put?.responses['200'] as { content: { 'application/json': { schema: { required: string[] } } } };
    expect(put.content['application/json'].schema.required).toEqual(['importId', 'status', 'size', 'checksum']);
  });
});
