/** Property: whatever arrives, malformed bodies, headers or query strings never produce a 500. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../shared';
import type { TestServer } from '../helpers/local-server';
import { getToken, startTestServer } from '../helpers/local-server';

const PATHS = [
  '/oauth/v1/access-token', '/law/api/v1/census', '/law/api/v1/receipt', '/law/api/v1/payroll-submissions',
  '/law/api/v1/deliveries', '/law/api/v1/deliveries/1', '/uploads/abc', '/local/v1/imports', '/local/v1/faults',
  '/local/v1/webhook', '/local/v1/requests', '/openapi.json',
];
const CONTENT_TYPES = ['application/json', 'application/json-patch+json', 'text/csv', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data', ''];

const printable = (max: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: max });

const jsonish = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.array(fc.dictionary(fc.constantFrom('lastName', 'firstName', 'employeeRegistration', 'hireDate', 'employeeStatus', 'ssn', 'amount', 'fileType', 'checksum', 'fileName', 'referenceDate', 'x', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'), fc.anything({ maxDepth: 1 }))).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  // Valid records and file metadata carrying a key or fileType that names an Object.prototype member.
  fc.tuple(fc.constantFrom('constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'), fc.jsonValue({ maxDepth: 0 })).map(([key, value]) =>
    `[{"lastName":"Doe","firstName":"J","employeeRegistration":"E1","hireDate":"2026-01-05","employeeStatus":"ACTIVE","fileType":${JSON.stringify(key)},${JSON.stringify(key)}:${JSON.stringify(value)}}]`),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
);

describe('no input produces a 500', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
  });
  afterAll(() => server.stop());

  it('holds for random requests to every route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        fc.constantFrom(...PATHS),
        printable(60),
        fc.constantFrom(...CONTENT_TYPES),
        fc.oneof(fc.constant('valid'), fc.constant('none'), printable(80).map((s) => `Bearer ${s}`), printable(80).map((s) => `Basic ${s}`)),
        jsonish,
        async (method, path, query, contentType, auth, body) => {
          const headers: Record<string, string> = {};
          if (contentType) headers['content-type'] = contentType;
          if (auth === 'valid') headers.authorization = `Bearer ${token}`;
          else if (auth !== 'none') headers.authorization = auth;
          const url = `${server.url}${path}?${encodeURI(query).replace(/#/g, '%23')}`;
          const res = await fetch(url, { method, headers, ...(method === 'GET' ? {} : { body }) });
          const text = await res.text();
          expect(res.status, `${method} ${url} -> ${text}`).toBeLessThan(500);
          expect(res.headers.get('x-trace-id')).toBeTruthy();
          if (res.status >= 400) expect(errorBodySchema.safeParse(JSON.parse(text)).success, text).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('holds for raw query strings of the deliveries list', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('status', 'maxRetries', 'limit', 'x', ''), fc.oneof(printable(12), fc.integer().map(String))),
        fc.boolean(),
        async (params, repeat) => {
          const qs = new URLSearchParams(params);
          if (repeat) qs.append('status', '1');
          const res = await fetch(`${server.url}/law/api/v1/deliveries?${qs.toString()}`, { headers: { authorization: `Bearer ${token}` } });
          expect(res.status).toBeLessThan(500);
          await res.arrayBuffer();
        },
      ),
      { numRuns: 200 },
    );
  });
});
