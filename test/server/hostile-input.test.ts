/** Hostile and careless input: every case is a 400 (or the matching 4xx) naming the problem, never a 500. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../shared';
import type { TestServer } from '../helpers/local-server';
import { TEST_CLIENT, api, getToken, loggedRows, startTestServer } from '../helpers/local-server';

const PROTO_KEYS = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];
const census = { lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' };
const receipt = { lastName: 'Doe', firstName: 'Jane', ssn: '123-45-6789', employeeRegistration: 'E-1', paymentDate: '2026-03-31', amount: 10 };
const grantItem = { fileType: '1', referenceDate: '2026-03-31T00:00:00Z', checksum: 'd41d8cd98f00b204e9800998ecf8427e', fileName: 'census.csv' };

/** Sends raw bytes on a fresh connection; resolves with everything the server wrote before closing. */
function raw(url: string, bytes: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as unknown;

describe('hostile input', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
  });
  afterAll(() => server.stop());

  const expectError = (res: { status: number; body: unknown }, status: number, message: RegExp) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const body = errorBodySchema.parse(res.body);
    expect(body.errors.join(' | ')).toMatch(message);
  };

  it.each(PROTO_KEYS)('a record key %s is a 400 naming it', async (key) => {
    const text = `[${JSON.stringify(census).slice(0, -1)},${JSON.stringify(key)}:1}]`;
    expectError(await api(server.url, token, 'POST', '/law/api/v1/census', text), 400, new RegExp(key.replace(/_/g, '_')));
    const receiptText = `[${JSON.stringify(receipt).slice(0, -1)},${JSON.stringify(key)}:"x"}]`;
    expectError(await api(server.url, token, 'POST', '/law/api/v1/receipt', receiptText), 400, new RegExp(key));
  });

  // null counts as absent for a record's own fields only: any other key is unknown, whatever its value.
  it.each([...PROTO_KEYS.filter((k) => k !== '__proto__'), 'hiredate', 'notes'])('a record key %s with the value null is a 400 naming it', async (key) => {
    const text = `[${JSON.stringify(census).slice(0, -1)},${JSON.stringify(key)}:null,"payrollArea":null}]`;
    expectError(await api(server.url, token, 'POST', '/law/api/v1/census', text), 400, new RegExp(`unknown field\\(s\\): ${key}$`));
    const receiptText = `[${JSON.stringify(receipt).slice(0, -1)},${JSON.stringify(key)}:null}]`;
    expectError(await api(server.url, token, 'POST', '/law/api/v1/receipt', receiptText), 400, new RegExp(`unknown field\\(s\\): ${key}$`));
    // A field of the record given as null is still absent.
    const absent = await api(server.url, token, 'POST', '/law/api/v1/census', [{ ...census, employeeRegistration: `E-null-${key}`, payrollArea: null }]);
    expect(absent.status).toBe(201);
  });

  it.each(PROTO_KEYS)('a fileType %s is a 400 naming the field', async (fileType) => {
    expectError(await api(server.url, token, 'POST', '/law/api/v1/payroll-submissions', [{ ...grantItem, fileType }]), 400, /\[0\]\.fileType: must be one of/);
  });

  it('a JSON body that is not valid UTF-8 is a 400, and nothing is stored', async () => {
    const bytes = Buffer.concat([Buffer.from('[{"lastName":"D'), Buffer.from([0xf6]), Buffer.from(`e",${JSON.stringify(census).slice(1, -1).replace('"lastName":"Doe",', '')}}]`)]);
    const before = (await api(server.url, token, 'GET', '/local/v1/imports')).body;
    const res = await fetch(`${server.url}/law/api/v1/census`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: bytes });
    expectError({ status: res.status, body: await res.json() }, 400, /not valid UTF-8/);
    const imports = await api(server.url, token, 'GET', '/local/v1/imports');
    expect(imports.body).toEqual(before);
  });

  it('money beyond 999,999,999,999.99 is a 400, at the limit it is taken', async () => {
    expectError(await api(server.url, token, 'POST', '/law/api/v1/census', [{ ...census, grossAnnualSalary: 1_000_000_000_000 }]), 400,
      /\[0\]\.grossAnnualSalary: must be at most 999,999,999,999\.99/);
    expectError(await api(server.url, token, 'POST', '/law/api/v1/census', '[{"lastName":"Doe","firstName":"Jane","employeeRegistration":"E-1","hireDate":"2026-01-05","employeeStatus":"ACTIVE","hourlyRate":12345678901234567890}]'),
      400, /\[0\]\.hourlyRate: the number 12345678901234567890 cannot be held exactly/);
    expectError(await api(server.url, token, 'POST', '/law/api/v1/receipt', [{ ...receipt, amount: 1e21 }]), 400, /\[0\]\.amount: must be at most/);
    expectError(await api(server.url, token, 'POST', '/law/api/v1/census', [{ ...census, periodsPerYear: 2 ** 53 + 2 }]), 400, /\[0\]\.periodsPerYear: must be 1 to 366/);
    const ok = await api(server.url, token, 'POST', '/law/api/v1/census', [{ ...census, grossAnnualSalary: 999_999_999_999.99 }]);
    expect(ok.status).toBe(201);
  });

  it('a number literal that cannot be held exactly is a 400 naming it, and nothing is stored; its shortest form is taken', async () => {
    const body = (field: string, literal: string) => `[${JSON.stringify(census).slice(0, -1)},"${field}":${literal}}]`;
    const stored = async () => ((await api(server.url, token, 'GET', '/local/v1/imports')).body as unknown[]).length;
    const before = await stored();
    expectError(await api(server.url, token, 'POST', '/law/api/v1/census', body('grossAnnualSalary', '12.3400000000000000001')), 400,
      /^\[0\]\.grossAnnualSalary: the number 12\.3400000000000000001 cannot be held exactly \(it would be read as 12\.34\)/);
    expectError(await api(server.url, token, 'POST', '/law/api/v1/census', body('grossAnnualSalary', '999999999999.9900001')), 400,
      /^\[0\]\.grossAnnualSalary: the number 999999999999\.9900001 cannot be held exactly/);
    expectError(await api(server.url, token, 'POST', '/law/api/v1/census', body('periodsPerYear', '12.0000000000000001')), 400,
      /^\[0\]\.periodsPerYear: the number 12\.0000000000000001 cannot be held exactly \(it would be read as 12\)/);
    expectError(await api(server.url, token, 'POST', '/law/api/v1/receipt', `[${JSON.stringify({ ...receipt, amount: 'x' }).replace('"x"', '1e-400')}]`), 400,
      /^\[0\]\.amount: the number 1e-400 cannot be held exactly \(it would be read as 0\)/);
    expect(await stored()).toBe(before);
    const ok = await api(server.url, token, 'POST', '/law/api/v1/census', body('grossAnnualSalary', '12.340'));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it.each(['a\nb.csv', 'a\r\nInjected: 1.csv', 'tab\there.csv', 'inv\u202Evsc.csv', 'x\u2066y\u2069.csv', 'nul\u0000.csv',
    'in\u200bvoice.csv', '\ufeffinvoice.csv', 'a\ud800.csv'])(
    'a fileName %j is a 400', async (fileName) => {
      expectError(await api(server.url, token, 'POST', '/law/api/v1/payroll-submissions', [{ ...grantItem, fileName }]), 400,
        /\[0\]\.fileName: must not hold control characters, line breaks, or invisible or bidirectional marks/);
    });

  it('a body over the limit says the limit', async () => {
    const res = await api(server.url, token, 'POST', '/law/api/v1/census', `[${'1,'.repeat(3 * 1024 * 1024)}1]`);
    expectError(res, 413, /at most 5 MB/);
    const grants = await api(server.url, token, 'POST', '/law/api/v1/payroll-submissions', `[${' '.repeat(300 * 1024)}]`);
    expectError(grants, 413, /at most 256 KB/);
  });

  it('the token endpoint\'s 413 carries OAuth\'s error field', async () => {
    // The client is checked first, before any body is read (without credentials this is a 401 at once).
    const basic = `Basic ${Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')}`;
    const res = await fetch(`${server.url}/oauth/v1/access-token`, {
      method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&x=${'a'.repeat(20 * 1024)}`,
    });
    const body = errorBodySchema.parse(await res.json());
    expect(res.status).toBe(413);
    expect(body.error).toBe('invalid_request');
    expect(body.errors[0]).toMatch(/at most 16 KB/);
  });

  const traceIdOf = (response: string) => /\r\nX-Trace-Id: ([0-9a-f]{32})\r\n/i.exec(response)?.[1];
  /** The request log's row with this trace id, once the group commit has written it. */
  async function loggedRow(traceId: string | undefined) {
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const [row] = await loggedRows(server.url, token, 'limit=50', (r) => r.traceId === traceId);
    return row;
  }

  it('headers too large: a 431 with the error body and X-Trace-Id, in the request log', async () => {
    const response = await raw(server.url, `GET /local/v1/health?signature=abc HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(response).toMatch(/^HTTP\/1\.1 431 /);
    expect(errorBodySchema.parse(bodyOf(response)).statusCode).toBe(431);
    const row = await loggedRow(traceIdOf(response));
    expect(row).toMatchObject({ method: 'GET', path: '/local/v1/health?signature=***', status: 431, clientId: null, requestBody: null });
    expect(row?.responseBody).toMatch(/at most 16 KB/);
  });

  it('a malformed request: a 400 with the error body and X-Trace-Id, in the request log', async () => {
    const response = await raw(server.url, 'GET /local/v1/health HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(errorBodySchema.parse(bodyOf(response)).errors[0]).toMatch(/not valid HTTP/);
    expect(await loggedRow(traceIdOf(response))).toMatchObject({ method: 'GET', path: '/local/v1/health', status: 400, clientId: null });
    // Not even a request line: logged with an empty method and path.
    const garbage = await raw(server.url, 'garbage\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(await loggedRow(traceIdOf(garbage))).toMatchObject({ method: '', path: '', status: 400, clientId: null });
  });

  it('no Host header on HTTP/1.1: a 400 with the error body and X-Trace-Id, in the request log; HTTP/1.0 needs none', async () => {
    const response = await raw(server.url, 'GET /local/v1/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(errorBodySchema.parse(bodyOf(response)).errors[0]).toMatch(/needs a Host header/);
    expect(await loggedRow(traceIdOf(response))).toMatchObject({ method: 'GET', path: '/local/v1/health', status: 400, clientId: null });
    expect(await raw(server.url, 'GET /local/v1/health HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    expect(await raw(server.url, 'GET /local/v1/health HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('CONNECT: a 405 with the error body and X-Trace-Id, in the request log', async () => {
    const response = await raw(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 405 /);
    expect(errorBodySchema.parse(bodyOf(response)).errors[0]).toMatch(/not a proxy/);
    expect(await loggedRow(traceIdOf(response))).toMatchObject({ method: 'CONNECT', path: 'example.com:443', status: 405, clientId: null });
  });

  it('a URL that is too long: a 414 with the error body and X-Trace-Id', async () => {
    const res = await fetch(`${server.url}/local/v1/imports?x=${'a'.repeat(9000)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(414);
    expect(res.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(errorBodySchema.parse(await res.json()).errors[0]).toMatch(/at most 8192/);
  });

  it('the router\'s refusals: a bad percent-encoding is a 400, an overlong path segment a 414 only past 8192, all logged', async () => {
    for (const path of ['/law/api/v1/census%zz', '/uploads/%zz', '/nope%']) {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(400);
      expect(errorBodySchema.parse(await res.json()).errors[0]).toMatch(/percent-encoding; write a literal % as %25/);
      expect(await loggedRow(res.headers.get('x-trace-id') ?? undefined)).toMatchObject({ status: 400, path });
    }
    // A 120-character id is just an unknown import.
    const long = await api(server.url, token, 'GET', `/local/v1/imports/${'a'.repeat(120)}`);
    expect(long.status).toBe(404);
    const longer = await fetch(`${server.url}/local/v1/imports/${'a'.repeat(9000)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(longer.status).toBe(414);
    expect(longer.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(errorBodySchema.parse(await longer.json()).errors[0]).toMatch(/at most 8192/);
  });
});
