import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../shared';
import type { RequestLogEntry } from './local-schemas';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, api, getToken, loggedRows, startTestServer } from '../../../test/helpers/local-server';

const OTHER = { id: 'other-client', secret: 'other-secret-value-456' };

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ clients: [{ ...TEST_CLIENT, scopes: [...SCOPES] }, { ...OTHER, scopes: ['census:write'] }] });
  token = await getToken(server.url);
});
afterAll(async () => server.stop());

const basic = `Basic ${Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')}`;
// The log keeps personal data masked: names and ssn become ***.
const masked = <T extends object>(r: T) => ({ ...r, lastName: '***', firstName: '***' });
const record = (i: number) => ({ lastName: 'Silva', firstName: 'Ana', employeeRegistration: `R-${i}`, hireDate: '2024-03-01', employeeStatus: 'ACTIVE' });

const findRows = (query: string, match: (row: RequestLogEntry) => boolean) => loggedRows(server.url, token, query, match);

describe('the request log', () => {
  it('records a token request and a census POST without any secret', async () => {
    const tokenRes = await fetch(`${server.url}/oauth/v1/access-token`, {
      method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_secret=${TEST_CLIENT.secret}`,
    });
    const issued = ((await tokenRes.json()) as { access_token: string }).access_token;
    const posted = await api(server.url, issued, 'POST', '/law/api/v1/census', [record(1)]);
    expect(posted.status).toBe(201);

    const [tokenRow] = await findRows('pathPrefix=/oauth/', (r) => r.traceId === tokenRes.headers.get('x-trace-id'));
    expect(tokenRow).toMatchObject({ method: 'POST', path: '/oauth/v1/access-token', status: 200, clientId: TEST_CLIENT.id });
    expect(tokenRow?.requestBody).toBe('grant_type=client_credentials&client_secret=***');
    expect(tokenRow?.responseBody).toContain('"access_token":"***"');
    expect(tokenRow?.responseBody).toContain('"token_type":"Bearer"');

    const [censusRow] = await findRows('pathPrefix=/law/api/v1/census&status=201', (r) => r.traceId === posted.headers.get('x-trace-id'));
    expect(censusRow).toMatchObject({ method: 'POST', status: 201, clientId: TEST_CLIENT.id });
    expect(JSON.parse(censusRow?.requestBody ?? '')).toEqual([masked(record(1))]);
    expect(JSON.parse(censusRow?.responseBody ?? '')).toEqual(posted.body);
    expect(censusRow?.durationMs).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(censusRow?.at ?? ''))).toBe(false);

    const all = JSON.stringify((await api(server.url, token, 'GET', '/local/v1/requests?limit=1000')).body);
    for (const secret of [TEST_CLIENT.secret, issued, token, basic.slice(6), 'Bearer ']) expect(all).not.toContain(secret);
  });

  it('cuts bodies at 4 KiB with a marker, and masks a secret the cut would split', async () => {
    const big = Array.from({ length: 200 }, (_, i) => record(1000 + i));
    const posted = await api(server.url, token, 'POST', '/law/api/v1/census', big);
    expect(posted.status).toBe(201);
    const [row] = await findRows('pathPrefix=/law/api/v1/census', (r) => r.traceId === posted.headers.get('x-trace-id'));
    const body = row?.requestBody ?? '';
    expect(body.startsWith(JSON.stringify(big.map(masked)).slice(0, 4096))).toBe(true);
    expect(body.slice(4096)).toMatch(/^…\[cut after 4096 characters; the body had \d+ bytes\]$/);

    const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    // The secret's value starts at character 4080 of the body and runs past the 4096 cut.
    const padded = { url: `http://127.0.0.1/${'x'.repeat(4043)}`, secret };
    const put = await api(server.url, token, 'PUT', '/local/v1/webhook', padded);
    expect(put.status).toBe(400);
    const [putRow] = await findRows('pathPrefix=/local/v1/webhook', (r) => r.traceId === put.headers.get('x-trace-id'));
    expect(putRow?.requestBody).not.toContain(secret.slice(6, 20));
    expect(putRow?.requestBody).toContain('"secret":"***"');
  });

  it('records 404s, masks upload signatures and keeps only the size of uploaded files', async () => {
    const missing = await api(server.url, token, 'GET', '/law/api/v1/nowhere?x=1');
    expect(missing.status).toBe(404);
    const [notFound] = await findRows('status=404', (r) => r.traceId === missing.headers.get('x-trace-id'));
    expect(notFound).toMatchObject({ method: 'GET', path: '/law/api/v1/nowhere?x=1', status: 404 });
    expect(notFound?.responseBody).toContain('"statusCode":404');

    const csv = 'lastName,firstName\nSilva,Ana\n';
    const upload = await fetch(`${server.url}/uploads/some-file?expires=99&signature=deadbeefcafe`, {
      method: 'PUT', headers: { 'content-type': 'text/csv' }, body: csv,
    });
    await upload.arrayBuffer();
    const [uploadRow] = await findRows('pathPrefix=/uploads/', (r) => r.traceId === upload.headers.get('x-trace-id'));
    expect(uploadRow?.path).toBe('/uploads/some-file?expires=99&signature=***');
    expect(uploadRow?.requestBody).toBe(`<${Buffer.byteLength(csv)} bytes of text/csv>`);
  });

  it('masks a personal field whose value is an array or object, whole', async () => {
    const sent = [{ ...record(1), lastName: ['Doe', 'Roe'], firstName: { given: 'Jane' }, ssn: ['123-45-6789', '987-65-4321'] }];
    const posted = await api(server.url, token, 'POST', '/law/api/v1/census', sent);
    expect(posted.status).toBe(400);
    const [row] = await findRows('status=400', (r) => r.traceId === posted.headers.get('x-trace-id'));
    expect(JSON.parse(row?.requestBody ?? '')).toEqual([{ ...record(1), lastName: '***', firstName: '***', ssn: '***' }]);
  });

  it('gives a request no route answered to the client of its valid token, and shows others no body of a shared row', async () => {
    const otherToken = await getToken(server.url, OTHER);
    const payroll = [{ ...record(77), employeeRegistration: 'SECRET-EMP-77' }];
    const ids: string[] = [];
    for (const [method, path, status] of [['POST', '/law/api/v1/census/', 404], ['PATCH', '/law/api/v1/census', 405]] as const) {
      const res = await api(server.url, token, method, path, payroll);
      expect(res.status).toBe(status);
      const [row] = await findRows(`pathPrefix=${path}`, (r) => r.traceId === res.headers.get('x-trace-id'));
      expect(row?.clientId).toBe(TEST_CLIENT.id);
      ids.push(res.headers.get('x-trace-id') ?? '');
    }
    // Without a valid token the row is everyone's: its body is kept as its size and type only.
    const anonymous = await api(server.url, 'not-a-token', 'POST', '/law/api/v1/census/', payroll);
    expect(anonymous.status).toBe(404);
    const [shared] = await loggedRows(server.url, otherToken, 'pathPrefix=/law/api/v1/census/', (r) => r.traceId === anonymous.headers.get('x-trace-id'));
    expect(shared?.clientId).toBeNull();
    expect(shared?.requestBody).toMatch(/^<\d+ bytes of application\/json>$/);
    const seen = JSON.stringify((await api(server.url, otherToken, 'GET', '/local/v1/requests?limit=1000')).body);
    expect(seen).not.toContain('SECRET-EMP-77');
    for (const id of ids) expect(seen).not.toContain(id);
  });

  it('gives a refused upload to a known address to that address\'s client', async () => {
    const grants = await api(server.url, token, 'POST', '/law/api/v1/payroll-submissions',
      [{ fileType: '1', referenceDate: '2026-03-31T00:00:00Z', checksum: 'a'.repeat(32), fileName: 'log-owner.csv' }]);
    expect(grants.status).toBe(201);
    const address = new URL((grants.body as { uploadUrl: string }[])[0]?.uploadUrl ?? '');
    address.searchParams.set('signature', 'f'.repeat(64));
    const forged = await fetch(address, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: 'a\n' });
    expect(forged.status).toBe(403);
    const [row] = await findRows(`pathPrefix=${address.pathname}`, (r) => r.traceId === forged.headers.get('x-trace-id'));
    expect(row?.clientId).toBe(TEST_CLIENT.id);
    const seen = JSON.stringify((await api(server.url, await getToken(server.url, OTHER), 'GET', '/local/v1/requests?limit=1000')).body);
    expect(seen).not.toContain(address.pathname);
  });

  it('shows the caller its own requests and anonymous ones, newest first, and refuses bad queries', async () => {
    const otherToken = await getToken(server.url, OTHER);
    const theirs = await api(server.url, otherToken, 'GET', '/local/v1/imports');
    const [theirRow] = await loggedRows(server.url, otherToken, 'pathPrefix=/local/v1/imports', (r) => r.traceId === theirs.headers.get('x-trace-id'));
    expect(theirRow?.clientId).toBe(OTHER.id);
    const mine = JSON.stringify((await api(server.url, token, 'GET', '/local/v1/requests?limit=1000')).body);
    expect(mine).not.toContain(theirs.headers.get('x-trace-id'));
    const rows = (await api(server.url, token, 'GET', '/local/v1/requests?limit=5')).body as RequestLogEntry[];
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => b - a));
    for (const r of rows) expect([null, TEST_CLIENT.id]).toContain(r.clientId);
    for (const [query, message] of [['limit=0', /limit/], ['status=600', /status/], ['pathPrefix=law', /start with \//], ['q=1', /unknown/]] as const) {
      const res = await api(server.url, token, 'GET', `/local/v1/requests?${query}`);
      expect(res.status).toBe(400);
      expect((res.body as { errors: string[] }).errors.join()).toMatch(message);
    }
  });
});
