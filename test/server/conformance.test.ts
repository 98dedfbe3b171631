/**
 * Black-box conformance of the `server` command against the service as docs/service-decisions.md states it: each block runs
 * the real CLI process and speaks only HTTP to it, as an outside checker would. Only what the other server
 * tests do not already cover is here (flags honoured end to end, OAuth answer order, 415/404/405 edges,
 * the retry budget, restarts, shutdown, binding).
 */
import { request as httpRequest } from 'node:http';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, type DeliveryAttempt, type ImportResult, type UploadGrant } from '../../shared';
import { censusChunks, censusRow, csvText, md5 } from '../helpers/csv-fixtures';
import { metadata, postSubmissions, putFile } from '../helpers/file-handshake';
import type { CliServer } from '../helpers/local-server';
import { api, eventually, getToken, spawnServerCli, tempDir } from '../helpers/local-server';
import type { WebhookReceiver } from '../helpers/webhook-receiver';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

const FULL = { id: 'full', secret: 'full-secret-1' };
const READER = { id: 'reader', secret: 's3cret' };
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const census = (reg: string) => [{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: reg, hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }];
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

async function tokenRequest(url: string, authorization: string, body: string | undefined, contentType?: string) {
  const res = await fetch(`${url}/oauth/v1/access-token`, {
    method: 'POST',
    headers: { authorization, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** The spec's error body, exactly (the token endpoint adds OAuth's `error`, a 500 its `traceId`). */
function expectErrorBody(res: { status: number; headers: Headers; body: unknown }, status: number, extra: string[] = []): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['errors', 'statusCode', 'timestamp', 'title', ...extra].sort());
  expect(body.statusCode).toBe(status);
  expect(body.timestamp).toMatch(ISO_UTC);
  expect((body.errors as unknown[]).length).toBeGreaterThan(0);
  for (const message of body.errors as unknown[]) expect(typeof message).toBe('string');
}

describe('the service surface through the CLI (--client with scopes, --token-ttl 77, --upload-ttl 33)', () => {
  let dir: string;
  let server: CliServer;
  let token: string;
  beforeAll(async () => {
    dir = await tempDir();
    server = await spawnServerCli([
      '--port', '0', '--data-dir', dir, '--client', `${FULL.id}:${FULL.secret}`,
      '--client', `${READER.id}:${READER.secret}:deliveries:read,census:write`, '--token-ttl', '77', '--upload-ttl', '33',
    ]);
    token = await getToken(server.url, FULL);
  });
  afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('issues tokens whose expires_in and exp follow --token-ttl, and scopes parsed after the second colon', async () => {
    const res = await tokenRequest(server.url, basic(READER.id, READER.secret), 'grant_type=client_credentials', 'application/x-www-form-urlencoded');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.token_type).toBe('Bearer');
    expect(res.body.expires_in).toBe(77);
    const claims = claimsOf(res.body.access_token as string);
    expect(Object.keys(claims).sort()).toEqual(['exp', 'iat', 'jti', 'scope', 'sub', 'sv']);
    expect(claims).toMatchObject({ sub: 'reader', scope: 'deliveries:read census:write' });
    expect(claims.exp).toBe((claims.iat as number) + 77);
    // The scope list is not part of the secret.
    const withScopes = await tokenRequest(server.url, basic(READER.id, `${READER.secret}:deliveries:read,census:write`), 'grant_type=client_credentials', 'application/x-www-form-urlencoded');
    expect(withScopes.status).toBe(401);
  });

  it('answers the token endpoint in OAuth order whatever the body: client 401 first, then 400 invalid_request', async () => {
    for (const [body, type] of [['<a/>', 'application/xml'], ['{', 'application/json'], ['grant_type=client_credentials', undefined]] as const) {
      const bad = await tokenRequest(server.url, basic(FULL.id, 'wrong'), body, type);
      expectErrorBody(bad, 401, ['error']);
      expect(bad.body.error).toBe('invalid_client');
      expect(bad.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    }
    for (const [body, type] of [['{"grant_type":"client_credentials"}', 'application/json'], ['grant_type=client_credentials', undefined], ['x', 'text/plain']] as const) {
      const res = await tokenRequest(server.url, basic(FULL.id, FULL.secret), body, type);
      expectErrorBody(res, 400, ['error']);
      expect(res.body.error).toBe('invalid_request');
    }
  });

  it('grants a client only its scopes: 201/200 within them, 403 outside', async () => {
    const reader = await getToken(server.url, READER);
    expect((await api(server.url, reader, 'POST', '/law/api/v1/census', census('R1'))).status).toBe(201);
    expect((await api(server.url, reader, 'GET', '/law/api/v1/deliveries')).status).toBe(200);
    const receipt = [{ lastName: 'Doe', firstName: 'Jane', ssn: '123-45-6789', employeeRegistration: 'R1', paymentDate: '2026-01-31', amount: 1 }];
    expectErrorBody(await api(server.url, reader, 'POST', '/law/api/v1/receipt', receipt), 403);
    expectErrorBody(await postSubmissions(server.url, reader, [metadata('x')]), 403);
  });

  it('answers 201 with exactly id, status QUEUED, records and receivedAt, and the result becomes visible', async () => {
    const res = await api(server.url, token, 'POST', '/law/api/v1/census', [...census('C1'), { ...census('C2')[0], payCycle: null }]);
    expect(res.status).toBe(201);
    const body = res.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['id', 'receivedAt', 'records', 'status']);
    expect(body).toMatchObject({ status: 'QUEUED', records: 2 });
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(body.receivedAt).toMatch(ISO_UTC);
    const result = await eventually(async () => {
      const r = (await api(server.url, token, 'GET', `/local/v1/imports/${String(body.id)}`)).body as ImportResult;
      return r.status === 'PROCESSED' ? r : undefined;
    });
    expect(result).toMatchObject({ acceptedRecords: 2, rejectedRecords: 0 });
  });

  it('answers 415 to text/plain on every JSON endpoint', async () => {
    for (const path of ['/law/api/v1/census', '/law/api/v1/receipt', '/law/api/v1/payroll-submissions']) {
      expectErrorBody(await api(server.url, token, 'POST', path, '[]', { 'content-type': 'text/plain' }), 415);
    }
    expectErrorBody(await api(server.url, token, 'PUT', '/local/v1/webhook', '{"url":"http://127.0.0.1:1/h"}', { 'content-type': 'text/plain' }), 415);
  });

  it('stops a chunked census body without Content-Length at 5 MB with 413', async () => {
    const row = JSON.stringify(census('X')[0]);
    // Writes a little past the limit, then waits: the answer must come without the body's end.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/law/api/v1/census`, {
        method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('[');
      const chunk = `${Array.from({ length: 1000 }, () => row).join(',')},`;
      let sent = 0;
      // Big pieces up to just under the limit, then one row at a time until just past it, and no more: bytes still
      // in flight after the server's answer would make its close a reset, which can swallow the 413 on a busy machine.
      const limit = LIMITS.jsonBodyBytes;
      const pump = () => {
        while (sent <= limit) {
          const piece = sent + chunk.length < limit ? chunk : `${row},`;
          sent += piece.length;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ title: 'Payload Too Large', statusCode: 413 });
  });

  it('answers 404 for unknown routes and 405 with Allow on every prefix, each with X-Trace-Id', async () => {
    for (const path of ['/law/api/v1/nothing', '/oauth/v1/nothing', '/local/v1/nothing', '/uploads', '/nothing', '/law/api/v1/census/']) {
      expectErrorBody(await api(server.url, token, 'GET', path), 404);
    }
    const cases = [
      ['GET', '/oauth/v1/access-token', 'POST'], ['GET', '/law/api/v1/census', 'POST'], ['DELETE', '/law/api/v1/deliveries', 'GET, HEAD'],
      ['POST', '/uploads/some-file', 'PUT'], ['PATCH', '/local/v1/imports', 'GET, HEAD'],
    ] as const;
    for (const [method, path, allow] of cases) {
      const res = await api(server.url, token, method, path);
      // The token endpoint's errors carry OAuth's error code, its 405 too.
      expectErrorBody(res, 405, path.startsWith('/oauth/') ? ['error'] : []);
      expect(res.headers.get('allow')).toBe(allow);
    }
    const openapi = await fetch(`${server.url}/openapi.json`);
    expect(openapi.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers a path that leaves a route parameter empty as an unknown route: 404, before any token check', async () => {
    const cases = [
      ['GET', '/law/api/v1/deliveries/'], ['GET', '/local/v1/imports/'], ['POST', '/local/v1/deliveries//redeliver'], ['PUT', '/uploads/'],
    ] as const;
    for (const [method, path] of cases) {
      for (const bearer of [token, undefined]) {
        const res = await api(server.url, bearer, method, path);
        expectErrorBody(res, 404);
        expect((res.body as { errors: string[] }).errors, `${method} ${path}`).toEqual([`no such endpoint: ${method} ${path}`]);
      }
    }
    // With an id they are the routes they were.
    expect((await api(server.url, token, 'GET', '/law/api/v1/deliveries/x')).status).toBe(400);
    expect((await api(server.url, token, 'GET', '/local/v1/imports/x')).body).toMatchObject({ errors: ['no import with id x'] });
  });

  it('puts traceId in the body of every 500, equal to X-Trace-Id', async () => {
    const path = '/law/api/v1/deliveries';
    expect((await api(server.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: path, errorRate: 1, errorStatus: 500 }])).status).toBe(200);
    try {
      const res = await api(server.url, token, 'GET', path);
      expectErrorBody(res, 500, ['traceId']);
      expect((res.body as { traceId: string }).traceId).toBe(res.headers.get('x-trace-id'));
    } finally {
      await api(server.url, token, 'DELETE', '/local/v1/faults');
    }
  });

  it('makes upload addresses of the decided form that live --upload-ttl seconds', async () => {
    const content = csvText('census', [censusRow(1)]);
    const before = Math.floor(Date.now() / 1000);
    const res = await postSubmissions(server.url, token, [metadata(content, { checksum: md5(content).toUpperCase() })], 'application/vnd.payroll+json');
    const after = Math.ceil(Date.now() / 1000);
    expect(res.status).toBe(201);
    const [grant] = res.body as UploadGrant[];
    const escaped = server.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`^${escaped}/uploads/([^/?]+)\\?expires=(\\d+)&signature=([0-9a-f]{64})$`).exec(grant?.uploadUrl ?? '');
    expect(match).not.toBeNull();
    const expires = Number(match?.[2]);
    expect(expires).toBeGreaterThanOrEqual(before + 33);
    expect(expires).toBeLessThanOrEqual(after + 33);
    expect(grant?.expiration).toBe(new Date(expires * 1000).toISOString().replace('.000Z', 'Z'));
    const waiting = (await api(server.url, token, 'GET', '/local/v1/imports?status=AWAITING_UPLOAD')).body as ImportResult[];
    expect(waiting.map((i) => i.fileName)).toContain(grant?.fileName);
    const refused = await fetch(grant?.uploadUrl ?? '', { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
    expect((await putFile(grant?.uploadUrl ?? '', content)).status).toBe(200);
  });
});

describe('webhook deliveries through the CLI (--webhook-url, --webhook-secret, --retry-delays 100 x 5)', () => {
  const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  let dir: string;
  let server: CliServer;
  let receiver: WebhookReceiver;
  let token: string;
  /** Import id -> how the receiver answers that import's event. */
  const plan = new Map<string, 'fail' | 'ok' | 'hang-once'>();
  const hung = new Set<string>();
  const importOf = (body: string) => (JSON.parse(body) as { data: { importId: string } }).data.importId;

  beforeAll(async () => {
    dir = await tempDir();
    receiver = await startWebhookReceiver();
    receiver.setFallback((request) => {
      const id = importOf(request.body);
      const mode = plan.get(id);
      if (mode === 'fail') return { status: 500 };
      if (mode === 'hang-once' && !hung.has(id)) {
        hung.add(id);
        return { hang: true };
      }
      return { status: 204 };
    });
    server = await spawnServerCli([
      '--port', '0', '--data-dir', dir, '--client', `${FULL.id}:${FULL.secret}`, '--webhook-url', receiver.url,
      '--webhook-secret', secret, '--retry-delays', '100,100,100,100,100',
    ]);
    token = await getToken(server.url, FULL);
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function send(reg: string, mode: 'fail' | 'ok' | 'hang-once'): Promise<string> {
    const id = ((await api(server.url, token, 'POST', '/law/api/v1/census', census(reg))).body as { id: string }).id;
    plan.set(id, mode);
    return id;
  }
  const attempts = async (query = '') => (await api(server.url, token, 'GET', `/law/api/v1/deliveries${query}`)).body as DeliveryAttempt[];
  const eventOf = async (importId: string) => {
    const request = await eventually(() => receiver.requests.find((r) => importOf(r.body) === importId));
    return request.headers['webhook-id'] ?? '';
  };

  it('makes exactly 6 records for an always-failing receiver, newest first, and delivers the next event signed', async () => {
    const failing = await send('W1', 'fail');
    const eventId = await eventOf(failing);
    const records = await eventually(async () => {
      const mine = (await attempts()).filter((a) => a.eventId === eventId);
      return mine.length === 6 && mine.every((a) => a.status === 3) ? mine : undefined;
    });
    expect(records.map((a) => a.attemptCount)).toEqual([5, 4, 3, 2, 1, 0]);
    expect(records.map((a) => a.type)).toEqual([2, 2, 2, 2, 2, 1]);
    expect(records.map((a) => a.httpStatusCode)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(records.map((a) => a.id)).toEqual([...records.map((a) => a.id)].sort((x, y) => y - x));
    for (const a of records) expect(a.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect((await attempts('?maxRetries=0&status=3')).filter((a) => a.eventId === eventId)).toHaveLength(1);

    const ok = await send('W2', 'ok');
    const okEvent = await eventOf(ok);
    const delivered = await eventually(async () => (await attempts()).find((a) => a.eventId === okEvent && a.status === 2));
    expect(delivered).toMatchObject({ type: 1, attemptCount: 0, httpStatusCode: 204 });
    const request = receiver.requests.find((r) => r.headers['webhook-id'] === okEvent);
    const verified = new Webhook(secret).verify(request?.body ?? '', request?.headers ?? {}) as { type: string; data: { importId: string } };
    expect(verified).toMatchObject({ type: 'import.processed', data: { importId: ok } });
    // The failed event made no 7th record meanwhile.
    expect((await attempts()).filter((a) => a.eventId === eventId)).toHaveLength(6);
  });

  it('shows an attempt PENDING with a null status while the receiver is silent, then fails it at the 5 s time-out', async () => {
    const id = await send('W3', 'hang-once');
    const eventId = await eventOf(id);
    const pending = await eventually(async () => (await attempts()).find((a) => a.eventId === eventId));
    expect(pending).toMatchObject({ status: 1, httpStatusCode: null, type: 1, attemptCount: 0 });
    const failed = await eventually(async () => (await attempts()).find((a) => a.eventId === eventId && a.status === 3));
    expect(failed.httpStatusCode).toBeNull();
    expect(failed.durationMs).toBeGreaterThanOrEqual(5000);
    const retried = await eventually(async () => (await attempts()).find((a) => a.eventId === eventId && a.status === 2));
    expect(retried).toMatchObject({ type: 2, attemptCount: 1, httpStatusCode: 204 });
  });
});

describe('a restart on the same data folder', () => {
  let dir: string;
  let receiver: WebhookReceiver;
  const servers: CliServer[] = [];
  const start = async (clientSecret: string) => {
    const s = await spawnServerCli([
      '--port', '0', '--data-dir', dir, '--client', `acme:${clientSecret}`, '--webhook-url', receiver.url,
      '--webhook-secret', `whsec_${Buffer.alloc(24, 9).toString('base64')}`, '--retry-delays', '5000,100,100,100,100',
    ]);
    servers.push(s);
    return s;
  };
  beforeAll(async () => {
    dir = await tempDir();
    receiver = await startWebhookReceiver({ status: 500 });
  });
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    await receiver.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps tokens, duplicates, pending deliveries and unfinished imports, and a --client given again replaces the old one', async () => {
    const big = Buffer.concat([...censusChunks(40 * 1024 * 1024)]);
    const first = await start('first-secret');
    const token = await getToken(first.url, { id: 'acme', secret: 'first-secret' });
    const small = csvText('census', [censusRow(1)]);
    const smallGrant = ((await postSubmissions(first.url, token, [metadata(small)])).body as UploadGrant[])[0];
    expect((await putFile(smallGrant?.uploadUrl ?? '', small)).status).toBe(200);
    // Its event fails once; the retry is due 5 s later, after the crash below.
    const failedOnce = await eventually(async () => {
      const list = (await api(first.url, token, 'GET', '/law/api/v1/deliveries')).body as DeliveryAttempt[];
      return list.find((a) => a.status === 3);
    });

    const bigGrant = ((await postSubmissions(first.url, token, [metadata(big, { fileName: 'big.csv' })])).body as UploadGrant[])[0];
    const put = await putFile(bigGrant?.uploadUrl ?? '', big);
    expect(put.status).toBe(200);
    const importId = put.body.importId as string;
    // Killed while the file is being processed: nothing can finish it but the next start.
    await eventually(async () => {
      const r = (await api(first.url, token, 'GET', `/local/v1/imports/${importId}`)).body as ImportResult;
      if (r.status === 'PROCESSED') throw new Error('processed before the crash; make the file larger');
      return r.status === 'PROCESSING' ? r : undefined;
    }, 20_000, 5);
    // Two JSON batches wait behind the file: one kept as sent (indented JSON), one whose names zod trims.
    const person = (i: number, registration = `Q-${i}`) => ({ lastName: 'Doe', firstName: 'Jane', employeeRegistration: registration, hireDate: '2026-01-05', employeeStatus: 'ACTIVE' });
    const asSent = Array.from({ length: 150 }, (_, i) => person(i));
    const trimmed = Array.from({ length: 150 }, (_, i) => person(1000 + i, i === 0 ? '  T-1  ' : `T-${1000 + i}`));
    const waiting = [];
    for (const body of [JSON.stringify(asSent, null, 2), JSON.stringify(trimmed)]) {
      const posted = await api(first.url, token, 'POST', '/law/api/v1/census', body);
      expect(posted.status).toBe(201);
      waiting.push((posted.body as { id: string }).id);
    }
    for (const id of waiting) {
      expect(((await api(first.url, token, 'GET', `/local/v1/imports/${id}`)).body as ImportResult).status, 'the file finished first; make it larger').toBe('QUEUED');
    }
    await first.stop('SIGKILL');
    receiver.setFallback({ status: 200 });

    const second = await start('second-secret');
    // The client has a new secret: tokens issued under the old one end with it.
    expect((await api(second.url, token, 'GET', '/law/api/v1/deliveries')).status).toBe(401);
    expect((await tokenRequest(second.url, basic('acme', 'first-secret'), 'grant_type=client_credentials', 'application/x-www-form-urlencoded')).status).toBe(401);
    const secondToken = await getToken(second.url, { id: 'acme', secret: 'second-secret' });
    expect((await api(second.url, secondToken, 'GET', '/law/api/v1/deliveries')).status).toBe(200);
    const again = await postSubmissions(second.url, secondToken, [metadata(small, { checksum: md5(small).toUpperCase() })]);
    expect(again.status).toBe(422);

    const resumed = await eventually(async () => {
      const r = (await api(second.url, secondToken, 'GET', `/local/v1/imports/${importId}`)).body as ImportResult;
      return r.status === 'PROCESSED' ? r : undefined;
    }, 60_000);
    expect(resumed.acceptedRecords).toBe(resumed.records);
    expect(resumed.rejectedRecords).toBe(0);
    // The batches kept until processing come back as they were accepted: all records, names trimmed.
    for (const id of waiting) {
      const batch = await eventually(async () => {
        const r = (await api(second.url, secondToken, 'GET', `/local/v1/imports/${id}`)).body as ImportResult;
        return r.status === 'PROCESSED' ? r : undefined;
      });
      expect(batch).toMatchObject({ records: 150, acceptedRecords: 150, rejectedRecords: 0 });
    }
    const receipt = (registration: string) => ({ lastName: 'Doe', firstName: 'Jane', ssn: '123-45-6789', employeeRegistration: registration, paymentDate: '2026-03-31', amount: 10.5 });
    const receipts = await api(second.url, secondToken, 'POST', '/law/api/v1/receipt', [receipt('Q-149'), receipt('T-1'), receipt('T-1149')]);
    expect(receipts.status).toBe(201);
    const checked = await eventually(async () => {
      const r = (await api(second.url, secondToken, 'GET', `/local/v1/imports/${(receipts.body as { id: string }).id}`)).body as ImportResult;
      return r.status === 'PROCESSED' ? r : undefined;
    });
    expect(checked).toMatchObject({ acceptedRecords: 3, rejectedRecords: 0 });
    const retry = await eventually(async () => {
      const list = (await api(second.url, secondToken, 'GET', '/law/api/v1/deliveries')).body as DeliveryAttempt[];
      return list.find((a) => a.eventId === failedOnce.eventId && a.status === 2);
    });
    expect(retry).toMatchObject({ type: 2, attemptCount: 1, httpStatusCode: 200 });
  }, 120_000);
});

describe('shutdown and binding', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finishes an upload in flight on SIGTERM, then exits with 0', async () => {
    const server = await spawnServerCli(['--port', '0', '--data-dir', join(dir, 'graceful'), '--client', `${FULL.id}:${FULL.secret}`]);
    const token = await getToken(server.url, FULL);
    const content = Buffer.from(csvText('census', Array.from({ length: 2000 }, (_, i) => censusRow(i))));
    const grant = ((await postSubmissions(server.url, token, [metadata(content)])).body as UploadGrant[])[0];
    // Expect: 100-continue tells when the server holds the request; the body follows only after SIGTERM.
    const answer = new Promise<number>((resolve, reject) => {
      const req = httpRequest(grant?.uploadUrl ?? '', {
        method: 'PUT', headers: { 'content-type': 'text/csv', 'content-length': content.length, expect: '100-continue' },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.on('continue', () => {
        server.child.kill('SIGTERM');
        void eventually(() => (server.stderr().includes('SIGTERM: shutting down') ? true : undefined)).then(() => req.end(content));
      });
      req.flushHeaders();
    });
    expect(await answer).toBe(200);
    const code = server.child.exitCode ?? (await new Promise<number | null>((r) => server.child.once('exit', r)));
    expect(code).toBe(0);
  });

  it('binds the --host address only, and builds upload addresses on it', async () => {
    const server = await spawnServerCli(['--port', '0', '--host', '127.0.0.2', '--data-dir', join(dir, 'host'), '--client', `${FULL.id}:${FULL.secret}`]);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      const port = new URL(server.url).port;
      await expect(fetch(`http://127.0.0.1:${port}/local/v1/health`)).rejects.toThrow();
      const token = await getToken(server.url, FULL);
      const grant = ((await postSubmissions(server.url, token, [metadata('x')])).body as UploadGrant[])[0];
      expect(grant?.uploadUrl.startsWith(`${server.url}/uploads/`)).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
