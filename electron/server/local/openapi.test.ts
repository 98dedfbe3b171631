import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { censusBatchSchema, receiptBatchSchema } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, startTestServer } from '../../../test/helpers/local-server';
import { registeredRoutes } from './route-catalog';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }>; requestBody?: { content: Record<string, { example?: unknown }> } }>>;
  components: { schemas: Record<string, object>; securitySchemes: Record<string, { type: string; scheme: string }> };
};

let server: TestServer;
let doc: Doc;

beforeAll(async () => {
  server = await startTestServer();
  const res = await api(server.url, undefined, 'GET', '/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body as Doc;
});
afterAll(async () => server.stop());

const refsIn = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsIn(v)));
  }
  return [];
};

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document with the security schemes', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.components.securitySchemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('documents every route the running server registered', () => {
    const routes = registeredRoutes(server.ctx);
    expect(routes.length).toBeGreaterThan(10);
    const missing = routes
      .map((r) => ({ method: r.method.toLowerCase(), path: r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}') }))
      .filter((r) => !doc.paths[r.path]?.[r.method])
      .map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('covers the whole surface of the decisions, with the error body on every error status', () => {
    for (const path of [
      '/oauth/v1/access-token', '/law/api/v1/census', '/law/api/v1/receipt', '/law/api/v1/payroll-submissions', '/uploads/{fileId}',
      '/law/api/v1/deliveries', '/law/api/v1/deliveries/{id}', '/local/v1/health', '/local/v1/imports', '/local/v1/imports/{id}',
      '/local/v1/requests', '/local/v1/webhook', '/local/v1/faults', '/local/v1/deliveries/{id}/redeliver', '/openapi.json',
    ]) expect(Object.keys(doc.paths)).toContain(path);
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.headers).toHaveProperty('X-Trace-Id');
          if (Number(status) >= 400) expect(refsIn(response)).toContain('#/components/schemas/ErrorBody');
        }
      }
    }
    expect(Object.keys(doc.paths['/law/api/v1/census']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '413', '415', '422', '500']),
    );
    expect(Object.keys(doc.paths['/uploads/{fileId}']?.put?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '403', '409', '413', '415']),
    );
  });

  it('resolves every $ref to a component schema', () => {
    const refs = new Set(refsIn(doc));
    for (const ref of refs) {
      const [, section, name] = /^#\/components\/(schemas|headers)\/(.+)$/.exec(ref) ?? [];
      expect(section, ref).toBeDefined();
      expect((doc.components as Record<string, Record<string, unknown>>)[section as string]?.[name as string], ref).toBeDefined();
    }
  });

  it('has census and receipt examples that the generated schemas and the zod contract both accept', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const validate = (name: string, value: unknown) => {
      const ok = ajv.validate({ $ref: `doc#/components/schemas/${name}` }, value);
      return ok ? [] : (ajv.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    };
    const census = doc.paths['/law/api/v1/census']?.post?.requestBody?.content['application/json']?.example;
    const receipt = doc.paths['/law/api/v1/receipt']?.post?.requestBody?.content['application/json']?.example;
    expect(validate('CensusBatch', census)).toEqual([]);
    expect(validate('ReceiptBatch', receipt)).toEqual([]);
    expect(censusBatchSchema.safeParse(census).success).toBe(true);
    expect(receiptBatchSchema.safeParse(receipt).success).toBe(true);
    // The schemas are not vacuous: a census record with an unknown field or no hireDate is refused.
    expect(validate('CensusBatch', [{ ...(census as object[])[0], hiredate: '2024-01-01' }])).not.toEqual([]);
    expect(validate('CensusBatch', [])).not.toEqual([]);
  });

  it('answers without a token and names this server', async () => {
    const res = await api(server.url, undefined, 'GET', '/openapi.json');
    expect((res.body as { servers: { url: string }[] }).servers).toEqual([{ url: server.url }]);
  });
});
