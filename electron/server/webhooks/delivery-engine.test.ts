import { afterEach, describe, expect, it } from 'vitest';
import type { ImportResult } from '../../../shared';
import { webhookEventSchema } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, api, eventually, getToken, startTestServer } from '../../../test/helpers/local-server';
import type { WebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { startWebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { newWebhookSecret } from './webhook-secret';
import { eventOfImport } from './delivery-engine';
import { attempts, importCensus, settledAttempts, verified } from '../../../test/helpers/delivery-test-kit';

const FAST = [50, 50, 50, 50, 50];
/**
 * The time-out of an attempt where the test is not about time-outs: long enough that a loaded machine never turns a
 * receiver's prompt answer into a timed-out attempt (and an extra retry). stop() aborts what is still in flight.
 */
const SLOW_TIMEOUT_MS = 20_000;
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.();
});

async function setup(opts: { timeoutMs?: number; webhook?: boolean } = {}) {
  const receiver = await startWebhookReceiver();
  cleanup.push(() => receiver.close());
  const secret = newWebhookSecret();
  const server: TestServer = await startTestServer({
    ...(opts.webhook === false ? {} : { webhook: { url: receiver.url, secret } }),
    retryDelaysMs: FAST, deliveryTimeoutMs: opts.timeoutMs ?? SLOW_TIMEOUT_MS,
  });
  cleanup.push(() => server.stop());
  return { receiver, secret, server, url: server.url, token: await getToken(server.url) };
}

const requestsOf = (receiver: WebhookReceiver, eventId: string) => receiver.requests.filter((r) => r.headers['webhook-id'] === eventId);

describe('webhook delivery', () => {
  it('delivers a finished census import once, signed, with the decided payload', async () => {
    const { receiver, secret, url, token } = await setup();
    const importId = await importCensus(url, token);
    const [attempt] = await settledAttempts(url, token, 1);
    expect(attempt).toMatchObject({ type: 1, status: 2, httpStatusCode: 200, attemptCount: 0, eventType: 'import.processed' });
    expect(attempt?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    expect(receiver.requests).toHaveLength(1);
    const request = receiver.requests[0];
    if (!request) throw new Error('no request');
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/\S/);
    expect(request.headers['webhook-id']).toBe(attempt?.eventId);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = verified(secret, request);
    expect(payload).toStrictEqual({
      id: attempt?.eventId,
      type: 'import.processed',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) as unknown,
      data: { importId, kind: 'census', source: 'json', status: 'PROCESSED', acceptedRecords: 1, rejectedRecords: 0, errors: [] },
    });
    expect(webhookEventSchema.strict().safeParse(payload).success).toBe(true);
  });

  it('retries a failing receiver with the same webhook-id until it answers 2xx', async () => {
    const { receiver, secret, url, token } = await setup();
    receiver.script({ status: 500 }, { status: 503 });
    await importCensus(url, token);
    const list = await settledAttempts(url, token, 3);
    expect(list.map((a) => [a.type, a.status, a.httpStatusCode, a.attemptCount])).toEqual([
      [1, 3, 500, 0], [2, 3, 503, 1], [2, 2, 200, 2],
    ]);
    expect(list.map((a) => a.failure)).toEqual([
      'the endpoint answered 500; only a 2xx answer counts as delivered', 'the endpoint answered 503; only a 2xx answer counts as delivered', null,
    ]);
    expect(new Set(list.map((a) => a.eventId)).size).toBe(1);
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([list[0]?.eventId, list[0]?.eventId, list[0]?.eventId]);
    expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1);
    for (const request of receiver.requests) expect(() => verified(secret, request)).not.toThrow();
  });

  it('stops after the 5th retry fails, and a later event is still delivered', async () => {
    const { receiver, url, token } = await setup();
    receiver.setFallback({ status: 500 });
    await importCensus(url, token);
    const list = await settledAttempts(url, token, 6);
    expect(list.map((a) => [a.type, a.status, a.httpStatusCode, a.attemptCount])).toEqual([
      [1, 3, 500, 0], [2, 3, 500, 1], [2, 3, 500, 2], [2, 3, 500, 3], [2, 3, 500, 4], [2, 3, 500, 5],
    ]);
    const failedEvent = list[0]?.eventId ?? '';

    receiver.setFallback({ status: 204 });
    await importCensus(url, token);
    const after = await settledAttempts(url, token, 7);
    expect(after[6]).toMatchObject({ type: 1, status: 2, httpStatusCode: 204, attemptCount: 0 });
    expect(after[6]?.eventId).not.toBe(failedEvent);
    expect(after.filter((a) => a.eventId === failedEvent)).toHaveLength(6);
    expect(requestsOf(receiver, failedEvent)).toHaveLength(6);
  });

  it('fails an attempt whose answer does not come within 5 s, with no status and the time-out as duration', async () => {
    const { receiver, url, token } = await setup({ timeoutMs: 5000 });
    receiver.script({ status: 200, delayMs: 6000 });
    await importCensus(url, token);
    const list = await settledAttempts(url, token, 2, 30_000);
    expect(list[0]).toMatchObject({ type: 1, status: 3, httpStatusCode: null, attemptCount: 0, failure: 'no answer within 5 s' });
    expect(list[0]?.durationMs).toBeGreaterThanOrEqual(5000);
    expect(list[1]).toMatchObject({ type: 2, status: 2, httpStatusCode: 200, attemptCount: 1 });
  });

  it('delivers one event while another one hangs', async () => {
    const { receiver, url, token } = await setup({ timeoutMs: 20_000 });
    receiver.script({ hang: true });
    await importCensus(url, token);
    await eventually(() => (receiver.requests.length === 1 ? true : undefined));
    await importCensus(url, token);
    const list = await eventually(async () => {
      const all = await attempts(url, token);
      return all.some((a) => a.status === 2) ? all : undefined;
    });
    expect(list.map((a) => [a.type, a.status, a.httpStatusCode])).toEqual([[1, 1, null], [1, 2, 200]]);
    expect(list[0]?.eventId).not.toBe(list[1]?.eventId);
  });

  it('records no status when the connection is refused or cut', async () => {
    const { receiver, url, token } = await setup();
    receiver.script({ destroy: true });
    await importCensus(url, token);
    const cut = await settledAttempts(url, token, 2);
    expect(cut.map((a) => [a.status, a.httpStatusCode])).toEqual([[3, null], [2, 200]]);
    expect(cut[0]?.failure).toMatch(/^no answer: socket hang up/);

    await receiver.close();
    await importCensus(url, token);
    const refused = (await settledAttempts(url, token, 8)).slice(2);
    expect(refused.map((a) => [a.status, a.httpStatusCode, a.attemptCount])).toEqual([0, 1, 2, 3, 4, 5].map((n) => [3, null, n]));
    for (const a of refused) expect(a.failure).toMatch(/^no answer: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  });

  it('never follows a redirect: a 3xx is a failure', async () => {
    const { receiver, url, token } = await setup();
    receiver.script({ status: 307, headers: { location: receiver.url.replace('/hook', '/elsewhere') } });
    await importCensus(url, token);
    const list = await settledAttempts(url, token, 2);
    expect(list.map((a) => [a.status, a.httpStatusCode])).toEqual([[3, 307], [2, 200]]);
    expect(list[0]?.failure).toBe('the endpoint answered 307; only a 2xx answer counts as delivered');
    expect(receiver.requests.map((r) => r.url)).toEqual(['/hook', '/hook']);
  });

  it('records nothing for a client without a webhook', async () => {
    const { receiver, server, url, token } = await setup({ webhook: false });
    await importCensus(url, token);
    await server.ctx.processor.idle();
    await server.ctx.deliveries.idle();
    expect(await attempts(url, token)).toEqual([]);
    expect(server.ctx.db.prepare('SELECT COUNT(*) AS n FROM events').get()).toMatchObject({ n: 0 });
    expect(receiver.requests).toEqual([]);
  });

  it('redelivers an event on request as a new RETRY attempt', async () => {
    const { receiver, server, url, token } = await setup();
    receiver.script({ status: 500 });
    await importCensus(url, token);
    const [failed, succeeded] = await settledAttempts(url, token, 2);
    const redelivery = server.ctx.deliveries.redeliver(TEST_CLIENT.id, failed?.id ?? 0);
    const again = 'attempt' in redelivery ? redelivery.attempt : undefined;
    // One retry was done automatically: the redelivery is a retry too, counted after it (the event was delivered, so it is an extra try).
    expect(again).toMatchObject({ type: 2, status: 1, httpStatusCode: null, durationMs: 0, attemptCount: 2, eventId: failed?.eventId });
    expect(again?.id).toBeGreaterThan(succeeded?.id ?? 0);
    const list = await settledAttempts(url, token, 3);
    expect(list[2]).toMatchObject({ id: again?.id, type: 2, status: 2, httpStatusCode: 200, attemptCount: 2 });
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([failed?.eventId, failed?.eventId, failed?.eventId]);

    expect(server.ctx.deliveries.redeliver(TEST_CLIENT.id, 999_999)).toEqual({ refused: 'unknown' });
    expect(server.ctx.deliveries.redeliver('someone-else', failed?.id ?? 0)).toEqual({ refused: 'unknown' });
  });

  it('counts a redelivery as a retry, 1 to 5, so maxRetries=0 lists first attempts only', async () => {
    const { server, url, token } = await setup();
    await importCensus(url, token);
    const [first] = await settledAttempts(url, token, 1);
    const redelivery = server.ctx.deliveries.redeliver(TEST_CLIENT.id, first?.id ?? 0);
    expect(redelivery).toMatchObject({ attempt: { type: 2, attemptCount: 1, eventId: first?.eventId } });
    const [, again] = await settledAttempts(url, token, 2);
    expect(again).toMatchObject({ type: 2, status: 2, attemptCount: 1 });
    expect(await attempts(url, token, '?maxRetries=0')).toEqual([first]);

    // After all five retries, a redelivery stays within the range: 5.
    server.ctx.db.prepare('UPDATE events SET retries_done = 5, state = \'failed\' WHERE id = ?').run(first?.eventId);
    expect(server.ctx.deliveries.redeliver(TEST_CLIENT.id, first?.id ?? 0)).toMatchObject({ attempt: { type: 2, attemptCount: 5 } });
    await settledAttempts(url, token, 3);
  });

  it('refuses a redelivery once the webhook registration is gone, and records nothing', async () => {
    const { receiver, server, url, token } = await setup();
    await importCensus(url, token);
    const [first] = await settledAttempts(url, token, 1);
    expect((await api(url, token, 'DELETE', '/local/v1/webhook')).status).toBe(204);
    expect(server.ctx.deliveries.redeliver(TEST_CLIENT.id, first?.id ?? 0)).toEqual({ refused: 'no-webhook' });
    await server.ctx.deliveries.idle();
    expect(await attempts(url, token)).toEqual([first]);
    expect(receiver.requests).toHaveLength(1);
  });
});

describe('eventOfImport', () => {
  const base: ImportResult = {
    id: 'imp-1', kind: 'receipt', source: 'file', fileName: 'receipts.csv', status: 'REJECTED', records: null,
    acceptedRecords: 0, rejectedRecords: 0, errors: [], reason: 'missing required column ssn', receivedAt: '2026-01-01T00:00:00.000Z',
  };

  it('makes import.rejected carry the reason as its one error', () => {
    const event = eventOfImport(base, new Date('2026-01-02T03:04:05.000Z'));
    expect(event).toStrictEqual({
      id: expect.stringMatching(/^msg_[A-Za-z0-9_-]{20,}$/) as unknown,
      type: 'import.rejected',
      createdAt: '2026-01-02T03:04:05.000Z',
      data: {
        importId: 'imp-1', kind: 'receipt', source: 'file', fileName: 'receipts.csv', status: 'REJECTED',
        acceptedRecords: 0, rejectedRecords: 0, errors: [{ message: 'missing required column ssn' }],
      },
    });
  });

  it('makes no event for an unfinished import, and a fresh id per event', () => {
    expect(eventOfImport({ ...base, status: 'PROCESSING' })).toBeUndefined();
    const processed = { ...base, status: 'PROCESSED' as const, errors: [{ line: 3, field: 'ssn', message: 'ssn is invalid' }] };
    const [a, b] = [eventOfImport(processed), eventOfImport(processed)];
    expect(a?.type).toBe('import.processed');
    expect(a?.data.errors).toEqual([{ line: 3, field: 'ssn', message: 'ssn is invalid' }]);
    expect(a?.id).not.toBe(b?.id);
  });
});
