/** The request log keeps no secret sent in a query or handed out in a body, and logs every request, however deep. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../shared';
import { createLogger } from '../../lib/logger';
import type { RequestLogEntry } from './local-schemas';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, api, getToken, loggedRows, startTestServer } from '../../../test/helpers/local-server';

const OTHER = { id: 'other-client', secret: 'other-secret-value-456' };

let server: TestServer;
let token: string;
let otherToken: string;
const lines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({
    clients: [{ ...TEST_CLIENT, scopes: [...SCOPES] }, { ...OTHER, scopes: [...SCOPES] }],
    logger: createLogger('test-server', (line) => lines.push(line)),
  });
  token = await getToken(server.url);
  otherToken = await getToken(server.url, OTHER);
});
afterAll(async () => server.stop());

const traceOf = (res: { headers: Headers }) => res.headers.get('x-trace-id');
/** The row of `res` as `reader` sees it in GET /local/v1/requests. */
const rowOf = async (res: { headers: Headers }, reader = token) =>
  (await loggedRows(server.url, reader, 'limit=1000', (r) => r.traceId === traceOf(res)))[0] as RequestLogEntry;
const seenBy = async (reader: string) => JSON.stringify((await api(server.url, reader, 'GET', '/local/v1/requests?limit=1000')).body);

/** Sends raw bytes on a fresh connection; resolves with the answer's trace id. */
function raw(bytes: string): Promise<{ headers: Headers }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ headers: new Headers({ 'x-trace-id': /x-trace-id: (\w+)/i.exec(answer)?.[1] ?? '' }) }));
  });
}

describe('the request log and secrets in URLs', () => {
  it('masks tokens and client secrets sent in a query, in the rows every other client can read', async () => {
    // RFC 6750 §2.3's form of a bearer token: refused, so the row has no client and everyone sees it.
    const queryToken = await api(server.url, undefined, 'GET', `/local/v1/imports?access_token=${token}`);
    expect(queryToken.status).toBe(401);
    const querySecret = await fetch(
      `${server.url}/oauth/v1/access-token?client_id=${TEST_CLIENT.id}&client_secret=${TEST_CLIENT.secret}&grant_type=client_credentials`,
      { method: 'POST' });
    expect(querySecret.status).toBe(401);
    // The server percent-decodes keys, whatever their case: these are all secrets to it.
    const disguised = await api(server.url, undefined, 'GET',
      `/law/api/v1/nowhere?%73ignature=${'ab'.repeat(32)}&client%5Fsecret=${TEST_CLIENT.secret}&PASSWORD=pw-17`
      + '&Refresh_Token=rt-17&id_token=it-17&secret=s-17&x=kept');
    expect(disguised.status).toBe(404);

    const rows = await Promise.all([queryToken, querySecret, disguised].map((res) => rowOf(res, otherToken)));
    expect(rows.map((r) => [r.path, r.clientId])).toEqual([
      ['/local/v1/imports?access_token=***', null],
      [`/oauth/v1/access-token?client_id=${TEST_CLIENT.id}&client_secret=***&grant_type=client_credentials`, null],
      ['/law/api/v1/nowhere?%73ignature=***&client%5Fsecret=***&PASSWORD=***&Refresh_Token=***&id_token=***&secret=***&x=kept', null],
    ]);
    const seen = await seenBy(otherToken);
    for (const secret of [token, TEST_CLIENT.secret, 'ab'.repeat(32), 'pw-17', 'rt-17', 'it-17', 's-17']) expect(seen).not.toContain(secret);
  });

  it('masks a query secret in a request the HTTP parser refused, and one holding a raw quote', async () => {
    const refused = await raw(`GET /local/v1/health?client%5Fsecret=${TEST_CLIENT.secret} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    // Node takes `"` and `<` in a request line: the value runs to the next `&`, not to them.
    const quoted = await raw('GET /law/api/v1/nowhere?password=pw"<half>18&x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const [refusedRow, quotedRow] = [await rowOf(refused, otherToken), await rowOf(quoted, otherToken)];
    expect(refusedRow).toMatchObject({ status: 431, path: '/local/v1/health?client%5Fsecret=***', clientId: null });
    expect(quotedRow).toMatchObject({ status: 404, path: '/law/api/v1/nowhere?password=***&x=1', clientId: null });
    const seen = await seenBy(otherToken);
    expect(seen).not.toContain(TEST_CLIENT.secret);
    expect(seen).not.toContain('half>18');
  });

  it('masks the signatures of the upload addresses a grant answers, in its stored response', async () => {
    const grants = await api(server.url, token, 'POST', '/law/api/v1/payroll-submissions',
      [{ fileType: '1', referenceDate: '2026-03-31T00:00:00Z', checksum: 'b'.repeat(32), fileName: 'signed.csv' }]);
    expect(grants.status).toBe(201);
    const [grant] = grants.body as { uploadUrl: string }[];
    const signature = new URL(grant?.uploadUrl ?? '').searchParams.get('signature') ?? '';
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    const row = await rowOf(grants);
    // Still JSON, everything else as answered.
    expect(JSON.parse(row.responseBody ?? '')).toEqual([{ ...grant, uploadUrl: grant?.uploadUrl.replace(signature, '***') }]);
    expect(await seenBy(token)).not.toContain(signature);
  });

  it('masks personal data sent in a query, as in a body: in stored paths, form bodies and log lines', async () => {
    // A route that takes no query ignores it, one that checks its query refuses it, no route 404s: all are kept masked.
    const census = await api(server.url, token, 'POST', '/law/api/v1/census?ssn=111-22-3333&firstName=Ana-7&x=kept',
      [{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'Q-7', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]);
    expect(census.status).toBe(201);
    const listed = await api(server.url, token, 'GET', '/local/v1/imports?LastName=Silva-7&limit=5');
    const nowhere = await api(server.url, undefined, 'GET', '/law/api/v1/nowhere?SSN=222-33-4444&last%4Eame=Souza-7&FIRSTNAME=Bia-7');
    expect(nowhere.status).toBe(404);
    const refused = await raw(`GET /local/v1/health?ssn=333-44-5555 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const basic = `Basic ${Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')}`;
    const form = await fetch(`${server.url}/oauth/v1/access-token`, {
      method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&ssn=444-55-6666',
    });
    await form.arrayBuffer();

    expect((await rowOf(census)).path).toBe('/law/api/v1/census?ssn=***&firstName=***&x=kept');
    expect((await rowOf(listed)).path).toBe('/local/v1/imports?LastName=***&limit=5');
    expect((await rowOf(nowhere, otherToken)).path).toBe('/law/api/v1/nowhere?SSN=***&last%4Eame=***&FIRSTNAME=***');
    expect((await rowOf(refused, otherToken)).path).toBe('/local/v1/health?ssn=***');
    expect((await rowOf(form)).requestBody).toBe('grant_type=client_credentials&ssn=***');
    server.ctx.logger.error(`trace t: GET ${server.url}/law/api/v1/census?ssn=555-66-7777&limit=5: failed`);
    expect(lines.join('')).toContain('/law/api/v1/census?ssn=***&limit=5: failed');
    const seen = `${await seenBy(token)}${await seenBy(otherToken)}${lines.join('')}`;
    for (const value of ['111-22-3333', 'Ana-7', 'Silva-7', '222-33-4444', 'Souza-7', 'Bia-7', '333-44-5555', '444-55-6666', '555-66-7777']) {
      expect(seen).not.toContain(value);
    }
  });

  it('masks secret query values in the server\'s own log lines', () => {
    const url = `${server.url}/local/v1/imports?Access_Token=${token}&%73ignature=${'cd'.repeat(32)}&limit=5`;
    server.ctx.logger.child('any-part').error(`trace t: GET ${url}: failed`);
    const logged = lines.join('');
    expect(logged).toContain('?Access_Token=***&%73ignature=***&limit=5: failed');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('cd'.repeat(32));
  });
});

describe('the request log and awkward bodies', () => {
  it('logs a body nested too deeply to write back, as its size and type', async () => {
    const census = await api(server.url, token, 'POST', '/law/api/v1/census', `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(census.status).toBe(400);
    const faults = await api(server.url, token, 'PUT', '/local/v1/faults', `${'['.repeat(400_000)}${']'.repeat(400_000)}`);
    expect(faults.status).toBe(400);
    // Rows are written in the order of their answers: once this one is there, the deep ones are too, or never.
    await rowOf(await api(server.url, token, 'GET', '/local/v1/health'));
    const rows = (await api(server.url, token, 'GET', '/local/v1/requests?limit=1000')).body as RequestLogEntry[];
    const find = (res: { headers: Headers }) => rows.find((r) => r.traceId === traceOf(res));
    expect(find(census)).toMatchObject({ status: 400, clientId: TEST_CLIENT.id, requestBody: '<2000000 bytes of application/json>' });
    expect(find(faults)).toMatchObject({ status: 400, clientId: TEST_CLIENT.id, requestBody: '<800000 bytes of application/json>' });
  });

  it('masks personal and secret keys whatever their case', async () => {
    const census = await api(server.url, token, 'POST', '/law/api/v1/census',
      [{ SSN: '123-45-6789', LastName: 'Doe-19', FIRSTNAME: 'Jane-19', employeeRegistration: 'E-19' }]);
    expect(census.status).toBe(400);
    const basic = `Basic ${Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')}`;
    const form = await fetch(`${server.url}/oauth/v1/access-token`, {
      method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&Client_Secret=form-secret-19',
    });
    await form.arrayBuffer();

    expect(JSON.parse((await rowOf(census)).requestBody ?? '')).toEqual(
      [{ SSN: '***', LastName: '***', FIRSTNAME: '***', employeeRegistration: 'E-19' }]);
    expect((await rowOf(form)).requestBody).toBe('grant_type=client_credentials&Client_Secret=***');
    const seen = await seenBy(token);
    for (const value of ['123-45-6789', 'Doe-19', 'Jane-19', 'form-secret-19']) expect(seen).not.toContain(value);
  });
});
