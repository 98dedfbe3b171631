import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../../shared';
import { SCOPES, deliveryAttemptSchema, errorBodySchema } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, api, getToken, startTestServer } from '../../../test/helpers/local-server';
import type { WebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { startWebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { newWebhookSecret } from './webhook-secret';
import { importCensus, settledAttempts } from '../../../test/helpers/delivery-test-kit';

const OTHER = { id: 'other-reader', secret: 'other-secret-value-456' };
const WRITER = { id: 'census-writer', secret: 'writer-secret-value-789' };

let receiver: WebhookReceiver;
let server: TestServer;
let token: string;
/** Oldest first: a SUCCESS, then FAILED(0), FAILED(1), SUCCESS(2) of a second event. */
let made: DeliveryAttempt[];

const get = (path: string, as = token) => api(server.url, as, 'GET', path);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    clients: [
      { ...TEST_CLIENT, scopes: [...SCOPES] },
      { ...OTHER, scopes: ['deliveries:read'] },
      { ...WRITER, scopes: ['census:write'] },
    ],
    webhook: { url: receiver.url, secret: newWebhookSecret() },
    retryDelaysMs: [50, 50, 50, 50, 50],
    deliveryTimeoutMs: 20_000,
  });
  token = await getToken(server.url);
  await importCensus(server.url, token);
  await settledAttempts(server.url, token, 1);
  receiver.script({ status: 500 }, { status: 502 });
  await importCensus(server.url, token);
  made = await settledAttempts(server.url, token, 4);
});

afterAll(async () => {
  await server.stop();
  await receiver.close();
});

describe('GET /law/api/v1/deliveries', () => {
  it('lists the client\'s attempts newest first, each as the contract says', async () => {
    const res = await get('/law/api/v1/deliveries');
    expect(res.status).toBe(200);
    const list = (res.body as unknown[]).map((item) => deliveryAttemptSchema.strict().parse(item));
    expect(list).toEqual([...made].reverse());
    expect(list.map((a) => [a.type, a.status, a.httpStatusCode, a.attemptCount])).toEqual([
      [2, 2, 200, 2], [2, 3, 502, 1], [1, 3, 500, 0], [1, 2, 200, 0],
    ]);
    expect(list.every((a) => a.eventType === 'import.processed')).toBe(true);
  });

  it('filters by status and by maxRetries, together too', async () => {
    const ids = async (query: string) => ((await get(`/law/api/v1/deliveries?${query}`)).body as DeliveryAttempt[]).map((a) => a.id);
    const [first, failed0, failed1, success2] = made.map((a) => a.id);
    expect(await ids('status=3')).toEqual([failed1, failed0]);
    expect(await ids('status=2')).toEqual([success2, first]);
    expect(await ids('status=1')).toEqual([]);
    expect(await ids('maxRetries=0')).toEqual([failed0, first]);
    expect(await ids('maxRetries=1')).toEqual([failed1, failed0, first]);
    expect(await ids('maxRetries=5')).toEqual([success2, failed1, failed0, first]);
    expect(await ids('status=3&maxRetries=0')).toEqual([failed0]);
    expect(await ids('limit=2')).toEqual([success2, failed1]);
  });

  it.each([
    ['status=0', 'status'], ['status=4', 'status'], ['status=abc', 'status'], ['status=', 'status'], ['status=1.0', 'status'],
    ['maxRetries=6', 'maxRetries'], ['maxRetries=-1', 'maxRetries'], ['limit=0', 'limit'], ['limit=1001', 'limit'],
    ['limit=ten', 'limit'], ['unknown=1', 'unknown'], ['status=1&status=2', 'status'], ['limit=5&limit=5', 'limit'],
  ])('answers 400 naming the parameter for ?%s', async (query, name) => {
    const res = await get(`/law/api/v1/deliveries?${query}`);
    expect(res.status).toBe(400);
    const body = errorBodySchema.parse(res.body);
    expect(body).toMatchObject({ title: 'Bad Request', statusCode: 400 });
    expect(body.errors.length).toBeGreaterThan(0);
    expect(body.errors.join(' ')).toContain(name);
  });

  it('needs a token with deliveries:read', async () => {
    expect((await get('/law/api/v1/deliveries', '')).status).toBe(401);
    const writer = await getToken(server.url, WRITER);
    const denied = await get('/law/api/v1/deliveries', writer);
    expect(denied.status).toBe(403);
    expect(errorBodySchema.parse(denied.body).errors[0]).toContain('deliveries:read');
    expect((await get(`/law/api/v1/deliveries/${made[0]?.id}`, writer)).status).toBe(403);
  });

  it('shows another client nothing of these attempts', async () => {
    const other = await getToken(server.url, OTHER);
    const list = await get('/law/api/v1/deliveries', other);
    expect(list).toMatchObject({ status: 200, body: [] });
    expect((await get(`/law/api/v1/deliveries/${made[0]?.id}`, other)).status).toBe(404);
    expect(server.ctx.deliveries.redeliver(OTHER.id, made[0]?.id ?? 0)).toEqual({ refused: 'unknown' });
  });

  it('returns 100 by default and at most the limit asked, 1 to 1000', async () => {
    const origin = made[0]?.id ?? 0;
    for (let i = 0; i < 100; i += 1) server.ctx.deliveries.redeliver(TEST_CLIENT.id, origin);
    await server.ctx.deliveries.idle();
    const all = await get('/law/api/v1/deliveries?limit=1000');
    expect((all.body as unknown[]).length).toBe(104);
    const byDefault = (await get('/law/api/v1/deliveries')).body as DeliveryAttempt[];
    expect(byDefault).toHaveLength(100);
    expect(byDefault).toEqual((all.body as DeliveryAttempt[]).slice(0, 100));
    expect((await get('/law/api/v1/deliveries?limit=1')).body).toEqual((all.body as unknown[]).slice(0, 1));
  });
});

describe('GET /law/api/v1/deliveries/:id', () => {
  it('returns one attempt in the shape of a list item', async () => {
    for (const attempt of made) expect(await get(`/law/api/v1/deliveries/${attempt.id}`)).toMatchObject({ status: 200, body: attempt });
  });

  // One past the largest is a whole number too: the message says the range, not that it is no whole number.
  it.each(['abc', '1.5', '-1', '1e3', '0', '1000000000000000', '9999999999999999'])('answers 400 naming the range for the id %s', async (id) => {
    const res = await get(`/law/api/v1/deliveries/${id}`);
    expect(res.status).toBe(400);
    expect(errorBodySchema.parse(res.body).errors).toEqual(['the delivery id must be a whole number from 1 to 999999999999999']);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await get('/law/api/v1/deliveries/987654');
    expect(res.status).toBe(404);
    expect(errorBodySchema.parse(res.body)).toMatchObject({ title: 'Not Found', statusCode: 404 });
  });
});
