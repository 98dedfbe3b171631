/**
 * The OpenAPI document is the truth: a validating proxy built from it (ajv on each parameter's schema, values
 * parsed as their declared type) flags exactly the requests the server refuses with 400.
 */
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../shared';
import { md5 } from '../helpers/csv-fixtures';
import { fileIdOf, grantFor, metadata, putFile } from '../helpers/file-handshake';
import type { TestServer } from '../helpers/local-server';
import { TEST_CLIENT, api, eventually, getToken, startTestServer } from '../helpers/local-server';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

type Parameter = { name: string; in: 'query' | 'path'; required: boolean; schema: Record<string, unknown> };
type Listed = { description: string; headers?: Record<string, { schema?: Record<string, unknown> }> };
type Document = {
  paths: Record<string, Record<string, { parameters?: Parameter[]; security?: unknown[]; responses: Record<string, Listed> }>>;
  components: Record<string, unknown>;
};

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

/** The proxy's check of a request body against a component schema: true when it lets the body pass. */
function bodyCheckFor(doc: Document): (name: string, value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, logger: false });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (name, value) => {
    let validate = compiled.get(name);
    if (!validate) {
      validate = ajv.compile({ $ref: `doc#/components/schemas/${name}` });
      compiled.set(name, validate);
    }
    return validate(value) === true;
  };
}

/** Every operation of the document, with a path the server routes to it. */
const operationsOf = (doc: Document) => Object.entries(doc.paths).flatMap(([path, operations]) =>
  Object.keys(operations).map((method) => ({ path, method, concrete: path.replace('{id}', '1').replace('{fileId}', 'x') })));

/** Opens a connection; `answer` resolves with everything the server wrote before closing it. */
function openConnection(url: string): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const chunks: Buffer[] = [];
      const answer = new Promise<string>((done) => {
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('close', () => done(Buffer.concat(chunks).toString('utf8')));
      });
      resolve({ socket, answer });
    });
    socket.on('error', reject);
  });
}

async function raw(url: string, bytes: string): Promise<string> {
  const { socket, answer } = await openConnection(url);
  socket.end(bytes);
  return answer;
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(response)?.[1]);

/** A request with exactly these headers (fetch would add or drop some, such as an empty Content-Type). */
function send(url: string, method: string, headers: Record<string, string>, body = ''): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const BASIC = `Basic ${Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')}`;
const CENSUS = { lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E-1', hireDate: '2024-01-15', employeeStatus: 'ACTIVE' };
const RECEIPT = { lastName: 'Doe', firstName: 'Jane', ssn: '123-45-6789', employeeRegistration: 'E-1', paymentDate: '2026-01-30', amount: 10 };
let unique = 0;

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
        // 408, 414, 417 and 431 come before the router, so any operation can answer them (hostile-input.test.ts).
        for (const status of ['405', '408', '414', '417', '431']) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
      }
    }
    expect((doc.paths['/uploads/{fileId}']?.put?.responses['408'] as { description: string }).description).toMatch(/no byte for 30 s/);
    const put = doc.paths['/uploads/{fileId}']?.put?.responses['200'] as unknown as { content: { 'application/json': { schema: { required: string[] } } } };
    expect(put.content['application/json'].schema.required).toEqual(['importId', 'status', 'size', 'checksum']);
  });

  const listed = (path: string, method: string, status: number) => doc.paths[path]?.[method]?.responses[String(status)];

  it('lists the 400 of the HTTP parser on every operation, which any operation\'s request can get', async () => {
    for (const { path, method, concrete } of operationsOf(doc)) {
      const response = await raw(server.url, `${method.toUpperCase()} ${concrete} HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n`);
      expect(statusOf(response), `${method} ${path}`).toBe(400);
      expect(listed(path, method, 400)?.description, `${method} ${path}`).toMatch(/not valid HTTP/);
    }
  });

  it('lists the 415 of a compressed body on every operation, which answers it once the credentials passed, never before them', async () => {
    const grant = new URL((await grantFor(server.url, token, metadata(`gzip ${unique++}`))).uploadUrl);
    const compressed = (line: string, headers: string) =>
      raw(server.url, `${line} HTTP/1.1\r\nHost: x\r\n${headers}Content-Encoding: gzip\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    for (const { path, method, concrete } of operationsOf(doc)) {
      const verb = method.toUpperCase();
      const secured = (doc.paths[path]?.[method]?.security ?? []).length > 0;
      if (path === '/uploads/{fileId}') {
        // The signed address is the upload's credential: a bad one is its 403 whatever the body.
        expect(statusOf(await compressed(`${verb} ${concrete}`, 'Content-Type: text/csv\r\n')), 'unknown address').toBe(403);
        expect(statusOf(await compressed(`${verb} ${grant.pathname}${grant.search}`, 'Content-Type: text/csv\r\n')), `${method} ${path}`).toBe(415);
      } else {
        if (secured) expect(statusOf(await compressed(`${verb} ${concrete}`, '')), `${method} ${path} without credentials`).toBe(401);
        const authorization = path === '/oauth/v1/access-token' ? BASIC : `Bearer ${token}`;
        expect(statusOf(await compressed(`${verb} ${concrete}`, `Authorization: ${authorization}\r\n`)), `${method} ${path}`).toBe(415);
      }
      expect(listed(path, method, 415)?.description, `${method} ${path}`).toMatch(/Content-Encoding other than identity/);
    }
  });

  it('lists the 505 of another HTTP version, the 501 of another transfer coding and the 400 of two Host headers on every operation', async () => {
    for (const { path, method, concrete } of operationsOf(doc)) {
      const line = `${method.toUpperCase()} ${concrete}`;
      expect(statusOf(await raw(server.url, `${line} HTTP/2.0\r\nHost: x\r\n\r\n`)), `${method} ${path}`).toBe(505);
      expect(listed(path, method, 505)?.description, `${method} ${path}`).toMatch(/HTTP version other than HTTP\/1\.1 and HTTP\/1\.0/);
      expect(statusOf(await raw(server.url, `${line} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`)),
        `${method} ${path}`).toBe(501);
      expect(listed(path, method, 501)?.description, `${method} ${path}`).toMatch(/Transfer-Encoding with a coding other than chunked/);
      expect(statusOf(await raw(server.url, `${line} HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n`)), `${method} ${path}`).toBe(400);
      expect(listed(path, method, 400)?.description, `${method} ${path}`).toMatch(/more than one Host header/);
    }
  });

  it('lists the injected 503 and 500 on every operation fault rules reach, and answers them there', async () => {
    // The upload address is granted before the rule, which would fail the grant request too.
    const grant = await grantFor(server.url, token, metadata(`fault ${unique++}`));
    const call = (path: string, method: string, concrete: string) => {
      if (path === '/uploads/{fileId}') return fetch(grant.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: 'a' });
      const authorization = path === '/oauth/v1/access-token' ? BASIC : `Bearer ${token}`;
      return fetch(`${server.url}${concrete}`, { method: method.toUpperCase(), headers: { authorization } });
    };
    try {
      for (const errorStatus of [503, 500]) {
        expect((await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/', errorRate: 1, errorStatus }])).status).toBe(200);
        for (const { path, method, concrete } of operationsOf(doc)) {
          // Of /local/v1, only what changes nothing (DELETE /local/v1/faults would end the rule).
          if (path.startsWith('/local/v1/') && method !== 'get') continue;
          const res = await call(path, method, concrete);
          await res.arrayBuffer();
          if (path.startsWith('/local/v1/')) {
            expect(res.status, `${method} ${path}`).not.toBe(errorStatus);
            expect(listed(path, method, 503)?.description, `${method} ${path}`).toMatch(/stopping/);
          } else {
            expect(res.status, `${method} ${path}`).toBe(errorStatus);
            expect(listed(path, method, errorStatus)?.description, `${method} ${path}`).toMatch(/fault injected/);
          }
        }
      }
    } finally {
      await api(server.url, token, 'DELETE', '/local/v1/faults');
    }
  });

  it('lists the 503 of a stopping server on every operation, which answers it to every request', async () => {
    const stopping = await startTestServer();
    // The server's ends of the connections: what they have read is what the server has seen of each request.
    const accepted: Socket[] = [];
    stopping.app.server.on('connection', (socket: Socket) => accepted.push(socket));
    const operations = operationsOf(doc);
    const connections = await Promise.all(operations.map(async (op) => {
      // The request line arrives before the stop, the end of the head after it: not idle, so not closed at once.
      const connection = await openConnection(stopping.url);
      connection.socket.write(`${op.method.toUpperCase()} ${op.concrete} HTTP/1.1\r\nHost: x\r\n`);
      return { ...op, ...connection };
    }));
    // Stopped only once the server has read every request line: a connection it has read nothing from yet is idle,
    // and a stop closes an idle connection without an answer (a fixed wait was too short on a loaded machine).
    await eventually(() => (accepted.length === operations.length && accepted.every((socket) => socket.bytesRead > 0) ? true : undefined));
    const stopped = stopping.stop();
    // The ends of the heads are sent once the stop has begun (the server no longer listens): they meet a stopping server.
    await eventually(() => (stopping.app.server.listening ? undefined : true));
    for (const c of connections) c.socket.write('Content-Length: 0\r\n\r\n');
    for (const c of connections) {
      const response = await c.answer;
      expect(statusOf(response), `${c.method} ${c.path}`).toBe(503);
      expect(response).toMatch(/the server is stopping/);
      expect(listed(c.path, c.method, 503), `${c.method} ${c.path}`).toBeDefined();
    }
    await stopped;
  });

  it('lists the 429 of a redelivery asked for too soon, with its Retry-After', async () => {
    const receiver = await startWebhookReceiver();
    try {
      expect((await api(server.url, token, 'PUT', '/local/v1/webhook', { url: receiver.url })).status).toBe(200);
      expect((await api(server.url, token, 'POST', '/law/api/v1/census', [{ ...CENSUS, employeeRegistration: `R-${unique++}` }])).status).toBe(201);
      const [attempt] = await eventually(async () => {
        const list = (await api(server.url, token, 'GET', '/law/api/v1/deliveries')).body as DeliveryAttempt[];
        return list.length > 0 ? list : undefined;
      });
      const path = `/local/v1/deliveries/${attempt?.id}/redeliver`;
      expect((await api(server.url, token, 'POST', path)).status).toBe(202);
      const again = await api(server.url, token, 'POST', path);
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const response = listed('/local/v1/deliveries/{id}/redeliver', 'post', 429);
      expect(response?.headers?.['Retry-After']?.schema).toMatchObject({ type: 'integer', minimum: 1 });

      // Another event's attempt, once the registration is gone: the listed 409.
      expect((await api(server.url, token, 'POST', '/law/api/v1/census', [{ ...CENSUS, employeeRegistration: `R-${unique++}` }])).status).toBe(201);
      const newest = await eventually(async () => {
        const list = (await api(server.url, token, 'GET', '/law/api/v1/deliveries?status=2')).body as DeliveryAttempt[];
        return list.find((a) => a.eventId !== attempt?.eventId);
      });
      expect((await api(server.url, token, 'DELETE', '/local/v1/webhook')).status).toBe(204);
      expect((await api(server.url, token, 'POST', `/local/v1/deliveries/${newest.id}/redeliver`)).status).toBe(409);
      expect(listed('/local/v1/deliveries/{id}/redeliver', 'post', 409)?.description).toMatch(/no webhook registered.*register a webhook URL first/);
    } finally {
      await api(server.url, token, 'DELETE', '/local/v1/webhook');
      await receiver.close();
    }
  });

  it('describes the headers of the upload\'s 409s as sent, lists no 404, and refuses an unknown address with a 403', async () => {
    const headers = listed('/uploads/{fileId}', 'put', 409)?.headers ?? {};
    expect(headers['Upload-Status']?.schema).toMatchObject({ enum: ['uploaded', 'in-progress'] });

    const content = `uploaded ${unique++}`;
    const grant = await grantFor(server.url, token, metadata(content));
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
    const again = await putFile(grant.uploadUrl, content);
    expect(again.status).toBe(409);
    expect(again.headers.get('upload-status')).toBe('uploaded');
    expect(again.headers.get('etag')).toBe(`"${md5(content)}"`);
    expect(again.headers.get('import-id')).toBeTruthy();
    for (const name of ['ETag', 'Import-Id']) expect(headers[name]?.schema, name).toBeDefined();

    const slow = await grantFor(server.url, token, metadata(`slow ${unique++}`));
    const first = httpRequest(slow.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/csv', 'content-length': 100 } });
    first.on('error', () => undefined);
    first.write('a');
    try {
      // Once its temporary file exists, the server is receiving the first upload.
      await eventually(async () => ((await readdir(server.ctx.uploadsDir)).some((f) => f.startsWith(fileIdOf(slow.uploadUrl)) && f.endsWith('.part')) ? true : undefined));
      const busy = await putFile(slow.uploadUrl, 'x');
      expect(busy.status).toBe(409);
      expect(busy.headers.get('upload-status')).toBe('in-progress');
      expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(headers['Retry-After']?.schema).toMatchObject({ type: 'integer' });
    } finally {
      first.destroy();
    }

    expect(listed('/uploads/{fileId}', 'put', 404)).toBeUndefined();
    const unknown = await putFile(`${server.url}/uploads/no-such-file?expires=${Math.floor(Date.now() / 1000) + 600}&signature=${'ab'.repeat(32)}`, 'a');
    expect(unknown.status).toBe(403);
  });

  it('the token endpoint: a wrong type is the listed 400, an empty or malformed Content-Type the listed 415', async () => {
    const url = `${server.url}/oauth/v1/access-token`;
    for (const type of ['text/plain', 'application/json']) {
      const res = await send(url, 'POST', { authorization: BASIC, 'content-type': type }, 'grant_type=client_credentials');
      expect(res.status, type).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_request' });
    }
    expect(listed('/oauth/v1/access-token', 'post', 400)?.description).toMatch(/not application\/x-www-form-urlencoded/);
    for (const type of ['', ';;;']) {
      const res = await send(url, 'POST', { authorization: BASIC, 'content-type': type }, 'grant_type=client_credentials');
      expect(res.status, JSON.stringify(type)).toBe(415);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_request' });
      if (type) expect((JSON.parse(res.body) as { errors: string[] }).errors[0]).toMatch(/takes application\/x-www-form-urlencoded$/);
    }
    expect(listed('/oauth/v1/access-token', 'post', 415)?.description).toMatch(/empty or not a media type/);
  });

  it('the token endpoint: its listed 413 and 415 come after the client check, as the server answers a wrong secret 401 whatever the body', async () => {
    const url = `${server.url}/oauth/v1/access-token`;
    const wrong = `Basic ${Buffer.from(`${TEST_CLIENT.id}:wrong`).toString('base64')}`;
    const cases = [
      [413, { 'content-type': 'application/x-www-form-urlencoded' }, 'a'.repeat(20_000)],
      [415, { 'content-type': ';;;' }, 'grant_type=client_credentials'],
    ] as const;
    for (const [status, headers, body] of cases) {
      expect((await send(url, 'POST', { authorization: BASIC, ...headers }, body)).status).toBe(status);
      expect((await send(url, 'POST', { authorization: wrong, ...headers }, body)).status).toBe(401);
      const description = listed('/oauth/v1/access-token', 'post', status)?.description;
      expect(description).not.toMatch(/before the credentials/);
      expect(description).toMatch(/once the client credentials were found valid \(bad credentials are a 401 whatever the body\)/);
    }
  });

  it('operations that take no body list what a body sent with them gets', async () => {
    for (const [method, path, template] of [
      ['DELETE', '/local/v1/webhook', '/local/v1/webhook'], ['DELETE', '/local/v1/faults', '/local/v1/faults'],
      ['POST', '/local/v1/deliveries/999999/redeliver', '/local/v1/deliveries/{id}/redeliver'],
      ['PUT', '/local/v1/webhook', '/local/v1/webhook'], ['PUT', '/local/v1/faults', '/local/v1/faults'],
    ] as const) {
      for (const [status, type, body] of [[400, 'application/json', '{'], [415, 'text/plain', 'x'], [413, 'application/json', ' '.repeat(1024 * 1024 + 1)]] as const) {
        const res = await send(`${server.url}${path}`, method, { authorization: `Bearer ${token}`, 'content-type': type }, body);
        expect(res.status, `${method} ${path} ${type}`).toBe(status);
        expect(listed(template, method.toLowerCase(), status), `${method} ${template} ${status}`).toBeDefined();
      }
    }
  });
});

describe('request bodies: the document refuses exactly what the server refuses', () => {
  let server: TestServer;
  let token: string;
  let accepts: (name: string, value: unknown) => boolean;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
    accepts = bodyCheckFor((await (await fetch(`${server.url}/openapi.json`)).json()) as Document);
  });
  afterAll(() => server.stop());

  /** The server's verdict (2xx or 400) and the document's on one body. */
  async function verdicts(path: string, schema: string, body: unknown, method = 'POST') {
    const res = await api(server.url, token, method, path, body);
    expect([200, 201, 400], `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toContain(res.status);
    return { server: res.status !== 400, document: accepts(schema, body), answer: res.body };
  }

  it.each([
    ['a/b.csv'], ['a\\b.csv'], ['..csv'], ['a..b.csv'], ['.csv'], ['x.CSV'], ['a.b.csv'], ['.a.csv'], ['a..csv'], ['a.csv.'],
    ['a\u0000.csv'], ['a\nb.csv'], ['a\u0085.csv'], ['inv\u202Evsc.csv'], ['a\u200bb.csv'], ['\ufeffa.csv'], ['a\u00adb.csv'],
    ['a\ufffeb.csv'], ['invoice\u3164.csv'], ['a\u034fb.csv'], ['Folha de pagamento é 😀.csv'], ['census.txt'], [`${'n'.repeat(251)}.csv`], [`${'n'.repeat(252)}.csv`],
  ])('fileName %j', async (fileName) => {
    const item = metadata(`name ${unique++}`, { fileName });
    const { server: taken, document, answer } = await verdicts('/law/api/v1/payroll-submissions', 'SubmissionRequest', [item]);
    expect(document, JSON.stringify(answer)).toBe(taken);
  });

  it.each([
    '2026-02-30', '2026-02-28', '2024-02-29', '2023-02-29', '2000-02-29', '1900-02-29', '2026-04-31', '2026-12-31', '2026-13-01',
    '2026-00-10', '2026-01-00', '0099-12-31', '0100-01-01', '9999-12-31', '2026-1-01', '2026-01-32',
  ])('referenceDate %s', async (day) => {
    const item = metadata(`date ${unique++}`, { referenceDate: `${day}T00:00:00Z` });
    const { server: taken, document, answer } = await verdicts('/law/api/v1/payroll-submissions', 'SubmissionRequest', [item]);
    expect(document, JSON.stringify(answer)).toBe(taken);
  });

  const census = () => ({ ...CENSUS, employeeRegistration: `N-${unique++}` });
  it.each<[string, Record<string, unknown>]>([
    ...['eligibleForBenefits', 'payCycle', 'periodsPerYear', 'grossAnnualSalary', 'salaryPerPeriod', 'standardHours', 'hourlyRate',
      'timeType', 'payrollGroup', 'payrollArea', 'personnelSubArea', 'lastName', 'hireDate', 'employeeStatus']
      .map((field): [string, Record<string, unknown>] => [`${field}: null`, { [field]: null }]),
    ['lastName of spaces', { lastName: '   ' }], ['payrollGroup of a tab', { payrollGroup: '\t' }], ['lastName padded', { lastName: '  Doe ' }],
    ...[0.07, 19.99, 4.35, 0.29, 1.15, 999_999_999_999.99].map((v): [string, Record<string, unknown>] => [`hourlyRate ${v}`, { hourlyRate: v }]),
    ['toString: null', { toString: null }], ['hiredate: null (no such field)', { hiredate: null }],
    ['hireDate 2023-02-29', { hireDate: '2023-02-29' }], ['hireDate 2024-02-29', { hireDate: '2024-02-29' }], ['hireDate 0099-01-01', { hireDate: '0099-01-01' }],
  ])('census %s', async (_name, over) => {
    const { server: taken, document, answer } = await verdicts('/law/api/v1/census', 'CensusBatch', [{ ...census(), ...over }]);
    expect(document, JSON.stringify(answer)).toBe(taken);
  });

  it.each<[string, Record<string, unknown>]>([
    ['amount 0.07', { amount: 0.07 }], ['amount 19.99', { amount: 19.99 }], ['ssn null', { ssn: null }], ['amount 0', { amount: 0 }],
    ['paymentDate 2026-02-30', { paymentDate: '2026-02-30' }],
  ])('receipt %s', async (_name, over) => {
    const { server: taken, document, answer } = await verdicts('/law/api/v1/receipt', 'ReceiptBatch', [{ ...RECEIPT, ...over }]);
    expect(document, JSON.stringify(answer)).toBe(taken);
  });

  it.each([
    `whsec_${'A'.repeat(32)}`, `whsec_${'A'.repeat(31)}`, `whsec_${'A'.repeat(32)}==`, `whsec_${'A'.repeat(40)}===`, 'abc', `WHSEC_${'A'.repeat(32)}`,
    `whsec_${'A'.repeat(31)}-`,
  ])('webhook secret %s', async (secret) => {
    const { server: taken, document, answer } = await verdicts('/local/v1/webhook', 'WebhookRegistration', { url: 'http://127.0.0.1:9/hook', secret }, 'PUT');
    expect(document, JSON.stringify(answer)).toBe(taken);
  });

  it('money: more than 2 decimals is refused by the server and said in words, not as multipleOf (which refuses 0.07)', async () => {
    const res = await api(server.url, token, 'POST', '/law/api/v1/census', [{ ...census(), hourlyRate: 0.001 }]);
    expect(res.status).toBe(400);
    const schemas = ((await (await fetch(`${server.url}/openapi.json`)).json()) as { components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> } })
      .components.schemas;
    for (const [name, field] of [['CensusRecord', 'hourlyRate'], ['CensusRecord', 'grossAnnualSalary'], ['CensusRecord', 'salaryPerPeriod'], ['ReceiptRecord', 'amount']] as const) {
      const property = schemas[name]?.properties[field];
      expect(property, `${name}.${field}`).not.toHaveProperty('multipleOf');
      expect(property?.description, `${name}.${field}`).toMatch(/at most 2 decimals/);
    }
    expect(new Ajv2020().validate({ type: 'number', multipleOf: 0.01 }, 0.07)).toBe(false);
  });

  it.each([' http://localhost:1/hook ', '\thttp://127.0.0.1:1/hook\n', 'ftp://localhost/', 'http:localhost/', 'localhost:1/hook', ' HTTPS://localhost/x'])(
    'webhook url %j', async (url) => {
      try {
        const { server: taken, document, answer } = await verdicts('/local/v1/webhook', 'WebhookRegistration', { url }, 'PUT');
        expect(document, JSON.stringify(answer)).toBe(taken);
      } finally {
        await api(server.url, token, 'DELETE', '/local/v1/webhook');
      }
    },
  );

  it('the upload signature: either case of hex, as the server takes it; the document refuses the forms the server refuses (403)', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Document;
    const proxy = proxyFor(doc, '/uploads/{fileId}', 'put');
    const content = `signature ${unique++}`;
    const grant = await grantFor(server.url, token, metadata(content));
    const url = new URL(grant.uploadUrl);
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    const with_ = (values: Record<string, string>) => `${url.origin}${url.pathname}?${new URLSearchParams(values).toString()}`;
    for (const values of [
      { expires, signature: signature.slice(0, 63) }, { expires, signature: `${signature}0` }, { expires, signature: signature.replace(/./, 'g') },
      { expires: `0${'9'.repeat(12)}`, signature }, { expires: '', signature }, { signature },
    ] as Record<string, string>[]) {
      expect(proxy({ fileId: 'x', ...values }), JSON.stringify(values)).not.toEqual([]);
      expect((await putFile(with_(values), content)).status, JSON.stringify(values)).toBe(403);
    }
    const upper = { expires, signature: signature.toUpperCase() };
    expect(proxy({ fileId: 'x', ...upper })).toEqual([]);
    expect((await putFile(with_(upper), content)).status).toBe(200);
  });
});
