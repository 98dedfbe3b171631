import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, importCreatedSchema, LIMITS } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, eventually, getToken, startTestServer } from '../../../test/helpers/local-server';
import { getImport, toImportResult } from '../db/imports-repo';

const person = (reg: string, extra: Record<string, unknown> = {}) => ({
  lastName: 'Doe', firstName: 'Jane', employeeRegistration: reg, hireDate: '2026-01-05', employeeStatus: 'ACTIVE', ...extra,
});
const receipt = (reg: string, extra: Record<string, unknown> = {}) => ({
  lastName: 'Doe', firstName: 'Jane', ssn: '123-45-6789', employeeRegistration: reg, paymentDate: '2026-03-31', amount: 125.5, ...extra,
});

describe('census and receipt imports', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
  });
  afterAll(() => server.stop());

  const post = (kind: string, body: unknown, headers: Record<string, string> = {}) =>
    api(server.url, token, 'POST', `/law/api/v1/${kind}`, body, headers);
  const errors = (body: unknown) => errorBodySchema.parse(body).errors;
  const processed = (id: string) =>
    eventually(() => {
      const row = getImport(server.ctx.db, id);
      return row && (row.status === 'PROCESSED' || row.status === 'REJECTED') ? toImportResult(row) : undefined;
    });

  it('accepts a census batch with 201 and the decided body, then processes it', async () => {
    const res = await post('census', [person('C-1'), person('C-2', { payCycle: null, grossAnnualSalary: 52000.1 })]);
    expect(res.status).toBe(201);
    const created = importCreatedSchema.parse(res.body);
    expect(created).toMatchObject({ status: 'QUEUED', records: 2 });
    expect(res.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
    const result = await processed(created.id);
    expect(result).toMatchObject({ status: 'PROCESSED', acceptedRecords: 2, rejectedRecords: 0, kind: 'census', source: 'json' });
  });

  it('processes a large batch (kept compressed until processed) in full', async () => {
    const records = Array.from({ length: 300 }, (_, i) => person(`BIG-${i}`, { personnelSubArea: `Sub area ${i}` }));
    expect(JSON.stringify(records).length).toBeGreaterThan(16 * 1024);
    const res = await post('census', records);
    expect(res.status).toBe(201);
    const result = await processed(importCreatedSchema.parse(res.body).id);
    expect(result).toMatchObject({ status: 'PROCESSED', acceptedRecords: 300, rejectedRecords: 0 });
    const receipts = await post('receipt', [receipt('BIG-299')]);
    expect(await processed(importCreatedSchema.parse(receipts.body).id)).toMatchObject({ acceptedRecords: 1, rejectedRecords: 0 });
  });

  it('rejects receipts of employees no census import carried, record by record', async () => {
    await post('census', [person('R-KNOWN')]);
    const res = await post('receipt', [receipt('R-KNOWN'), receipt('R-UNKNOWN')]);
    expect(res.status).toBe(201);
    const result = await processed(importCreatedSchema.parse(res.body).id);
    expect(result).toMatchObject({ acceptedRecords: 1, rejectedRecords: 1 });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ index: 1, field: 'employeeRegistration' });
    expect(result.errors[0]?.message).toContain('R-UNKNOWN');
  });

  it.each<[string, unknown, string]>([
    ['an empty array', [], 'at least one record'],
    ['an object instead of an array', { a: 1 }, 'JSON array'],
    ['an unknown field', [person('X', { hiredate: '2026-01-01' })], 'unknown field(s): hiredate'],
    ['an impossible date', [person('X', { hireDate: '2026-02-30' })], '[0].hireDate'],
    ['a missing required field', [{ ...person('X'), lastName: undefined }], '[0].lastName: is required'],
    ['a null required field', [person('X', { firstName: null })], '[0].firstName: is required'],
    ['a bad enum', [person('X', { employeeStatus: 'RETIRED' })], 'ACTIVE, ON_LEAVE, TERMINATED'],
    ['three decimals', [person('X', { hourlyRate: 10.123 })], 'at most 2 decimals'],
    ['a 101-character name', [person('X', { lastName: 'x'.repeat(101) })], 'at most 100'],
  ])('answers 400 for %s, naming the problem', async (_name, body, message) => {
    const res = await post('census', body);
    expect(res.status).toBe(400);
    expect(errors(res.body).join('\n')).toContain(message);
  });

  it('answers 400 for receipts with a bad SSN or a zero amount', async () => {
    const res = await post('receipt', [receipt('X', { ssn: '123456789' }), receipt('Y', { amount: 0 })]);
    expect(res.status).toBe(400);
    expect(errors(res.body)).toEqual(expect.arrayContaining([expect.stringContaining('[0].ssn'), expect.stringContaining('[1].amount')]));
  });

  it('answers 400 for malformed JSON and 415 for another content type', async () => {
    expect((await post('census', '[{"lastName":', {})).status).toBe(400);
    const res = await post('census', 'lastName=x', { 'content-type': 'text/csv' });
    expect(res.status).toBe(415);
  });

  it('answers 413 for a body over 5 MB before parsing it', async () => {
    const big = `[${'"x",'.repeat(LIMITS.jsonBodyBytes / 4)}"x"]`;
    const res = await post('census', big);
    expect(res.status).toBe(413);
    expect(errorBodySchema.parse(res.body).statusCode).toBe(413);
  });

  it('answers 422 for repeated registrations in a census batch and repeated receipts', async () => {
    const census = await post('census', [person('D-1'), person('D-2'), person('D-1')]);
    expect(census.status).toBe(422);
    expect(errors(census.body)[0]).toContain('D-1');
    const receipts = await post('receipt', [receipt('D-1'), receipt('D-1')]);
    expect(receipts.status).toBe(422);
    expect((await post('receipt', [receipt('D-1'), receipt('D-1', { amount: 1 })])).status).toBe(201);
  });

  it('lists at most 100 problems, however many records are wrong', async () => {
    // 1.7 million empty records once gave a 316 MB error body after 48 s, and stalled every other request.
    const empties = await post('census', `[${Array(1_000_000).fill('{}').join(',')}]`);
    expect(empties.status).toBe(400);
    const listed = errors(empties.body);
    expect(listed).toHaveLength(LIMITS.listedErrors);
    expect(listed[0]).toBe('[0].lastName: is required');
    expect(listed.at(-1)).toMatch(/^… and records after \[\d+\] were not checked/);

    const repeated = await post('census', Array.from({ length: 1000 }, () => person('SAME')));
    expect(repeated.status).toBe(422);
    const repeats = errors(repeated.body);
    expect(repeats).toHaveLength(LIMITS.listedErrors + 1);
    expect(repeats.at(-1)).toBe(`… and ${999 - LIMITS.listedErrors} more (only the first ${LIMITS.listedErrors} problems are listed)`);
  });

  it('answers 404 and 405 with the error body', async () => {
    const missing = await api(server.url, token, 'GET', '/law/api/v1/nothing');
    expect(missing.status).toBe(404);
    expect(errorBodySchema.parse(missing.body).title).toBe('Not Found');
    const wrong = await api(server.url, token, 'DELETE', '/law/api/v1/census');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('POST');
  });
});
