import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../../shared';
import { SCOPES, deliveryAttemptSchema, importResultSchema, webhookSecretSchema } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, api, eventually, getToken, startTestServer, tempDir } from '../../../test/helpers/local-server';
import { startWebhookReceiver } from '../../../test/helpers/webhook-receiver';

const OTHER = { id: 'other-client', secret: 'other-secret-value-456' };
const census = (reg: string) => [{ lastName: 'Silva', firstName: 'Ana', employeeRegistration: reg, hireDate: '2024-03-01', employeeStatus: 'ACTIVE' }];

let server: TestServer;
let token: string;
let otherToken: string;

beforeAll(async () => {
  server = await startTestServer({
    clients: [{ ...TEST_CLIENT, scopes: [...SCOPES] }, { ...OTHER, scopes: ['deliveries:read'] }],
  });
  token = await getToken(server.url);
  otherToken = await getToken(server.url, OTHER);
});
afterAll(async () => server.stop());

const expectError = (res: { status: number; body: unknown }, status: number, text?: RegExp) => {
  expect(res.status).toBe(status);
  const body = res.body as { statusCode: number; title: string; errors: string[]; timestamp: string };
  expect(body).toMatchObject({ statusCode: status });
  expect(body.errors.length).toBeGreaterThan(0);
  if (text) expect(body.errors.join('\n')).toMatch(text);
};

describe('/local/v1 authentication', () => {
  const guarded: [string, string][] = [
    ['GET', '/local/v1/imports'], ['GET', '/local/v1/imports/x'], ['GET', '/local/v1/requests'],
    ['GET', '/local/v1/webhook'], ['PUT', '/local/v1/webhook'], ['DELETE', '/local/v1/webhook'],
    ['GET', '/local/v1/faults'], ['PUT', '/local/v1/faults'], ['DELETE', '/local/v1/faults'],
    ['POST', '/local/v1/deliveries/1/redeliver'],
  ];
  it.each(guarded)('%s %s needs a valid bearer token', async (method, path) => {
    const missing = await api(server.url, undefined, method, path);
    expectError(missing, 401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expectError(await api(server.url, `${token.slice(0, -4)}AAAA`, method, path), 401);
  });

  it('takes a token without any particular scope, and health needs none', async () => {
    expect((await api(server.url, otherToken, 'GET', '/local/v1/imports')).status).toBe(200);
    const health = await api(server.url, undefined, 'GET', '/local/v1/health');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('answers 405 for a wrong method and 404 for an unknown local path', async () => {
    expectError(await api(server.url, token, 'POST', '/local/v1/health'), 405);
    expectError(await api(server.url, token, 'GET', '/local/v1/nothing-here'), 404);
  });
});

describe('/local/v1/imports', () => {
  it('lists the caller\'s imports newest first, filtered, and gets one by id', async () => {
    const first = await api(server.url, token, 'POST', '/law/api/v1/census', census('L-1'));
    const second = await api(server.url, token, 'POST', '/law/api/v1/census', census('L-2'));
    expect([first.status, second.status]).toEqual([201, 201]);
    const ids = [(first.body as { id: string }).id, (second.body as { id: string }).id];

    const list = await eventually(async () => {
      const res = await api(server.url, token, 'GET', '/local/v1/imports?kind=census&status=PROCESSED&source=json');
      const items = res.body as { id: string }[];
      return ids.every((id) => items.some((i) => i.id === id)) ? items : undefined;
    });
    for (const item of list) expect(importResultSchema.parse(item)).toMatchObject({ kind: 'census', status: 'PROCESSED', source: 'json' });
    expect(list.findIndex((i) => i.id === ids[1])).toBeLessThan(list.findIndex((i) => i.id === ids[0]));

    const limited = await api(server.url, token, 'GET', '/local/v1/imports?limit=1');
    expect(limited.body).toHaveLength(1);
    expect((await api(server.url, token, 'GET', '/local/v1/imports?kind=receipt')).body).toEqual([]);

    const one = await api(server.url, token, 'GET', `/local/v1/imports/${ids[0]}`);
    expect(one).toMatchObject({ status: 200, body: { id: ids[0], records: 1, acceptedRecords: 1, rejectedRecords: 0, errors: [] } });
    expect(first.headers.get('location')).toBe(`/local/v1/imports/${ids[0]}`);
  });

  it('never shows another client\'s imports', async () => {
    const created = await api(server.url, token, 'POST', '/law/api/v1/census', census('L-3'));
    const id = (created.body as { id: string }).id;
    expectError(await api(server.url, otherToken, 'GET', `/local/v1/imports/${id}`), 404, /no import/);
    expect((await api(server.url, otherToken, 'GET', '/local/v1/imports')).body).toEqual([]);
  });

  it.each([
    ['limit=0', /limit must be a whole number from 1 to 1000/], ['limit=1001', /limit/], ['limit=abc', /limit/],
    ['status=DONE', /status must be one of/], ['kind=payroll', /kind must be one of/], ['source=ftp', /source must be one of/],
    ['sort=asc', /unknown query parameter\(s\): sort/],
  ])('refuses the query %s with a 400', async (query, message) => {
    expectError(await api(server.url, token, 'GET', `/local/v1/imports?${query}`), 400, message);
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await api(server.url, token, 'GET', '/local/v1/imports/00000000-0000-4000-8000-000000000000'), 404);
  });
});

describe('import lifecycle seen through /local/v1/imports', () => {
  it('shows a census batch QUEUED, then PROCESSED once a processor runs it', async () => {
    const dataDir = await tempDir();
    const first = await startTestServer({ dataDir });
    let second: TestServer | undefined;
    try {
      // With the processor stopped the batch stays QUEUED, which the list must show as such.
      await first.ctx.processor.stop();
      const t1 = await getToken(first.url);
      const created = await api(first.url, t1, 'POST', '/law/api/v1/census', census('Q-1'));
      const id = (created.body as { id: string }).id;
      expect((await api(first.url, t1, 'GET', '/local/v1/imports?status=QUEUED')).body).toMatchObject([{ id, status: 'QUEUED' }]);
      await first.stop();

      second = await startTestServer({ dataDir });
      const t2 = await getToken(second.url);
      const url = second.url;
      const done = await eventually(async () => {
        const res = await api(url, t2, 'GET', `/local/v1/imports/${id}`);
        return (res.body as { status: string }).status === 'PROCESSED' ? res.body : undefined;
      });
      expect(done).toMatchObject({ id, status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 0 });
      expect((await api(url, t2, 'GET', '/local/v1/imports?status=QUEUED')).body).toEqual([]);
    } finally {
      await first.stop();
      await second?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('/local/v1/webhook', () => {
  it('registers, shows without the secret, replaces and removes the webhook', async () => {
    expect((await api(server.url, token, 'GET', '/local/v1/webhook')).body).toEqual({ url: null, secretSet: false });

    const generated = await api(server.url, token, 'PUT', '/local/v1/webhook', { url: 'http://127.0.0.1:9/hook' });
    expect(generated.status).toBe(200);
    const state = generated.body as { url: string; secretSet: boolean; secret: string };
    expect(state).toMatchObject({ url: 'http://127.0.0.1:9/hook', secretSet: true });
    expect(webhookSecretSchema.safeParse(state.secret).success).toBe(true);

    const shown = await api(server.url, token, 'GET', '/local/v1/webhook');
    expect(shown.body).toEqual({ url: 'http://127.0.0.1:9/hook', secretSet: true });
    expect(JSON.stringify(shown.body)).not.toContain(state.secret);

    const own = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const replaced = await api(server.url, token, 'PUT', '/local/v1/webhook', { url: 'https://localhost:9/hooks', secret: own });
    expect(replaced.body).toEqual({ url: 'https://localhost:9/hooks', secretSet: true });
    // The other client's registration is its own.
    expect((await api(server.url, otherToken, 'GET', '/local/v1/webhook')).body).toEqual({ url: null, secretSet: false });

    const removed = await api(server.url, token, 'DELETE', '/local/v1/webhook');
    expect(removed.status).toBe(204);
    expect((await api(server.url, token, 'GET', '/local/v1/webhook')).body).toEqual({ url: null, secretSet: false });
  });

  it.each([
    [{ url: 'ftp://example.test/x' }, /url must be an absolute http\(s\) URL/],
    [{ url: 'not a url' }, /url/],
    [{}, /url/],
    [{ url: 'http://127.0.0.1/x', secret: 'plain' }, /whsec_/],
    [{ url: 'http://127.0.0.1/x', secret: `whsec_${Buffer.alloc(16).toString('base64')}` }, /at least 24/],
    [{ url: 'http://127.0.0.1/x', events: ['all'] }, /unknown field\(s\): events/],
    [[1], /must be an object/],
  ])('refuses %j with a 400', async (body, message) => {
    expectError(await api(server.url, token, 'PUT', '/local/v1/webhook', body), 400, message);
  });

  it('refuses a body that is not JSON', async () => {
    expectError(await api(server.url, token, 'PUT', '/local/v1/webhook', '{"url":', {}), 400);
    expectError(await api(server.url, token, 'PUT', '/local/v1/webhook', '<url/>', { 'content-type': 'application/xml' }), 415);
  });
});

describe('/local/v1/deliveries/:id/redeliver', () => {
  it('answers 400 for an id outside 1..999999999999999, saying the range, and 404 for an unknown one', async () => {
    for (const id of ['abc', '0', '1000000000000000']) {
      const res = await api(server.url, token, 'POST', `/local/v1/deliveries/${id}/redeliver`);
      expect([id, res.status, (res.body as { errors: string[] }).errors]).toEqual([id, 400, ['the delivery id must be a whole number from 1 to 999999999999999']]);
    }
    expectError(await api(server.url, token, 'POST', '/local/v1/deliveries/999999/redeliver'), 404, /999999/);
  });
});

describe('redelivery of a real delivery', () => {
  it('answers 202 with a new PENDING RETRY attempt that reaches the webhook with the same webhook-id', async () => {
    const receiver = await startWebhookReceiver();
    try {
      expect((await api(server.url, token, 'PUT', '/local/v1/webhook', { url: receiver.url })).status).toBe(200);
      expect((await api(server.url, token, 'POST', '/law/api/v1/census', census('D-1'))).status).toBe(201);
      const [first] = await eventually(async () => {
        const list = (await api(server.url, token, 'GET', '/law/api/v1/deliveries?status=2')).body as DeliveryAttempt[];
        return list.length > 0 ? list : undefined;
      });
      if (!first) throw new Error('no delivery');

      expectError(await api(server.url, otherToken, 'POST', `/local/v1/deliveries/${first.id}/redeliver`), 404);
      const again = await api(server.url, token, 'POST', `/local/v1/deliveries/${first.id}/redeliver`);
      expect(again.status).toBe(202);
      const attempt = deliveryAttemptSchema.parse(again.body);
      expect(attempt).toMatchObject({ type: 2, status: 1, httpStatusCode: null, eventId: first.eventId });
      expect(attempt.id).not.toBe(first.id);

      await eventually(() => (receiver.requests.length >= 2 ? true : undefined));
      const ids = receiver.requests.map((r) => r.headers['webhook-id']);
      expect(ids[0]).toBe(first.eventId);
      expect(ids[1]).toBe(first.eventId);
      const settled = await eventually(async () => {
        const res = await api(server.url, token, 'GET', `/law/api/v1/deliveries/${attempt.id}`);
        return (res.body as DeliveryAttempt).status === 2 ? res.body : undefined;
      });
      expect(settled).toMatchObject({ id: attempt.id, httpStatusCode: 200 });
    } finally {
      await api(server.url, token, 'DELETE', '/local/v1/webhook');
      await receiver.close();
    }
  });

  it('answers 409 once the webhook registration was removed, naming what to do, and records nothing', async () => {
    const receiver = await startWebhookReceiver();
    try {
      expect((await api(server.url, token, 'PUT', '/local/v1/webhook', { url: receiver.url })).status).toBe(200);
      expect((await api(server.url, token, 'POST', '/law/api/v1/census', census('D-2'))).status).toBe(201);
      // The event of this import is the one this receiver got.
      const delivered = await eventually(async () => {
        const list = (await api(server.url, token, 'GET', '/law/api/v1/deliveries?status=2')).body as DeliveryAttempt[];
        return list.find((a) => a.eventId === receiver.requests[0]?.headers['webhook-id']);
      });
      expect((await api(server.url, token, 'DELETE', '/local/v1/webhook')).status).toBe(204);
      const before = (await api(server.url, token, 'GET', '/law/api/v1/deliveries')).body;

      const refused = await api(server.url, token, 'POST', `/local/v1/deliveries/${delivered.id}/redeliver`);
      expectError(refused, 409, /^no webhook URL is registered for this client, .*Register a webhook URL first \(PUT \/local\/v1\/webhook\)/);
      await server.ctx.deliveries.idle();
      expect((await api(server.url, token, 'GET', '/law/api/v1/deliveries')).body).toEqual(before);
      expect(receiver.requests.filter((r) => r.headers['webhook-id'] === delivered.eventId)).toHaveLength(1);
    } finally {
      await api(server.url, token, 'DELETE', '/local/v1/webhook');
      await receiver.close();
    }
  });
});
