import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  censusBatchSchema, censusRecordSchema, fileMetadataSchema, isRealDate, isReferenceDate, receiptBatchSchema, receiptRecordSchema,
} from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, startTestServer } from '../../../test/helpers/local-server';
import type { JsonSchema } from './openapi-schemas';
import { componentSchemas } from './openapi-schemas';
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
      expect.arrayContaining(['200', '400', '403', '409', '413', '415', '507']),
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
    const ajv = new Ajv2020({ strict: false, logger: false });
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

  it('gives a delivery attempt\'s attemptCount its range, and requires failure, which this server always sends', () => {
    const attempt = (doc.components.schemas as Record<string, JsonSchema>).DeliveryAttempt;
    expect(attempt?.properties?.attemptCount).toMatchObject({ type: 'integer', minimum: 0, maximum: 5 });
    expect(attempt?.required).toContain('failure');
    const ajv = new Ajv2020({ strict: false, logger: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const valid = (value: object) => ajv.validate({ $ref: 'doc#/components/schemas/DeliveryAttempt' }, value);
    const item = { id: 1, type: 2, status: 2, httpStatusCode: 200, durationMs: 3, attemptCount: 5, createdAt: '2026-01-05T10:00:00', eventId: 'msg_1', eventType: 'import.processed', failure: null };
    expect(valid(item)).toBe(true);
    expect(valid({ ...item, attemptCount: 6 })).toBe(false);
    const { failure: _failure, ...withoutFailure } = item;
    expect(valid(withoutFailure)).toBe(false);
  });

  it('answers without a token and names this server', async () => {
    const res = await api(server.url, undefined, 'GET', '/openapi.json');
    expect((res.body as { servers: { url: string }[] }).servers).toEqual([{ url: server.url }]);
  });
});

describe('the component schemas take what the zod contract takes', () => {
  const schemas = componentSchemas();
  // No format checks (ajv-formats is not a dependency): the patterns carry the rules, and the logger stays quiet about it.
  const ajv = new Ajv2020({ strict: false, logger: false });
  ajv.addSchema({ $id: 'doc', components: { schemas } });
  const validator = (name: string, property?: string) =>
    ajv.compile({ $ref: `doc#/components/schemas/${name}${property ? `/properties/${property}` : ''}` });
  const property = (name: 'FileMetadata' | 'CensusRecord', key: string) => schemas[name].properties?.[key] as JsonSchema;

  it('the date patterns take exactly the real calendar dates the server takes, leap years included', () => {
    const hireDate = validator('CensusRecord', 'hireDate');
    const paymentDate = validator('ReceiptRecord', 'paymentDate');
    const referenceDate = validator('FileMetadata', 'referenceDate');
    const check = (day: string) => {
      expect(hireDate(day), day).toBe(isRealDate(day));
      expect(paymentDate(day), day).toBe(isRealDate(day));
      expect(referenceDate(`${day}T00:00:00Z`), day).toBe(isReferenceDate(`${day}T00:00:00Z`));
    };
    const two = (n: number) => String(n).padStart(2, '0');
    for (const year of [0, 4, 96, 99, 100, 104, 200, 400, 1600, 1700, 1900, 1996, 2000, 2023, 2024, 2026, 2100, 2400, 9996, 9999]) {
      for (let month = 0; month <= 13; month++) for (let day = 0; day <= 32; day++) check(`${String(year).padStart(4, '0')}-${two(month)}-${two(day)}`);
    }
    fc.assert(fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }),
      (year, month, day) => check(`${String(year).padStart(4, '0')}-${two(month)}-${two(day)}`)), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'0123456789-T:Z'), maxLength: 12 }), check), { numRuns: 2000 });
  });

  it('the fileName pattern takes exactly the names the server takes, but for characters beyond U+FFFF (described)', () => {
    const pattern = validator('FileMetadata', 'fileName');
    const taken = (fileName: string) => fileMetadataSchema.safeParse({
      fileType: '1', referenceDate: '2026-01-31T00:00:00Z', checksum: 'd41d8cd98f00b204e9800998ecf8427e', fileName,
    }).success;
    // Every character of the basic plane, inside a name.
    for (let code = 0; code < 0x10000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const name = `a${String.fromCharCode(code)}b.csv`;
      if (pattern(name) !== taken(name)) expect(pattern(name), `U+${code.toString(16)}`).toBe(taken(name));
    }
    const units = ['a', 'Z', '.', '/', '\\', ' ', 'é', 'c', 's', 'v', 'C', 'S', 'V', '-', '\u0000', '\n', '\u0085', '\u202e', '\u200b', '\ufeff', '\u00ad', '\ufffe', '😀'];
    fc.assert(fc.property(fc.array(fc.constantFrom(...units), { maxLength: 12 }), fc.constantFrom('', '.csv', '.CsV', '..csv', '.csv.'), (parts, end) => {
      const name = parts.join('') + end;
      expect(pattern(name), JSON.stringify(name)).toBe(taken(name));
    }), { numRuns: 3000 });
    for (const name of [`${'n'.repeat(251)}.csv`, `${'n'.repeat(252)}.csv`, '.a.csv', 'a.b.csv', 'a..b.csv']) expect(pattern(name), name).toBe(taken(name));
    // The gap the description names: a format character beyond U+FFFF.
    expect(taken('a\u{e0001}b.csv')).toBe(false);
    expect(pattern('a\u{e0001}b.csv')).toBe(true);
    expect(property('FileMetadata', 'fileName').description).toMatch(/U\+E0001/);
  });

  it('optional record fields take null (it counts as absent), required ones do not', () => {
    const records = [
      ['CensusRecord', censusRecordSchema, { lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E-1', hireDate: '2024-01-15', employeeStatus: 'ACTIVE' }],
      ['ReceiptRecord', receiptRecordSchema, { lastName: 'Doe', firstName: 'Jane', ssn: '123-45-6789', employeeRegistration: 'E-1', paymentDate: '2026-01-30', amount: 10 }],
    ] as const;
    for (const [name, zod, valid] of records) {
      const validate = validator(name);
      expect(validate(valid), name).toBe(true);
      const keys = Object.keys(schemas[name].properties ?? {});
      expect(keys.length).toBeGreaterThan(5);
      for (const key of keys) {
        const record = { ...valid, [key]: null };
        expect(validate(record), `${name}.${key}: null`).toBe(zod.safeParse(record).success);
      }
    }
    expect(property('CensusRecord', 'payCycle')).toMatchObject({ type: ['string', 'null'], enum: expect.arrayContaining([null, 'MONTHLY']) as unknown });
  });

  it('text fields refuse only whitespace, as the server trims them first', () => {
    const lastName = validator('CensusRecord', 'lastName');
    const taken = (value: string) => censusRecordSchema.safeParse({
      lastName: value, firstName: 'Jane', employeeRegistration: 'E-1', hireDate: '2024-01-15', employeeStatus: 'ACTIVE',
    }).success;
    for (const value of ['', ' ', '\t\n', '\u00a0', '\ufeff', '\u2028', ' a ', 'a', '\u200b']) expect(lastName(value), JSON.stringify(value)).toBe(taken(value));
  });

  it('the ssn pattern takes what the server takes, surrounding whitespace included', () => {
    const ssn = validator('ReceiptRecord', 'ssn');
    const taken = (value: string) => receiptRecordSchema.safeParse({
      lastName: 'Doe', firstName: 'Jane', ssn: value, employeeRegistration: 'E-1', paymentDate: '2026-01-30', amount: 10,
    }).success;
    for (const value of ['123-45-6789', ' 123-45-6789 ', '\t123-45-6789\u00a0', '123-45-6789\n', '123-45- 6789', '123456789', 'x123-45-6789', '']) {
      expect(ssn(value), JSON.stringify(value)).toBe(taken(value));
    }
    expect(ssn(' 123-45-6789 ')).toBe(true);
  });

  it('money says at most 2 decimals in words: multipleOf 0.01 would refuse valid amounts', () => {
    for (const key of ['grossAnnualSalary', 'salaryPerPeriod', 'hourlyRate']) {
      expect(property('CensusRecord', key), key).not.toHaveProperty('multipleOf');
      expect(property('CensusRecord', key).description, key).toMatch(/at most 2 decimals/);
    }
    const multipleOf = ajv.compile({ type: 'number', multipleOf: 0.01 });
    expect([0.07, 19.99, 4.35].filter((v) => !multipleOf(v))).not.toEqual([]);
  });
});
