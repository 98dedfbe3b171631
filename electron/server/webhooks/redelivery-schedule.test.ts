/**
 * A redelivery asked for over HTTP while the event's automatic retries are still going: it is the event's next retry,
 * sent now. A 2xx ends the event (nothing is left to retry); a failure counts, and the retries go on from it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../../shared';
import type { DeliveryFailure } from '../options';
import { TEST_CLIENT, api, getToken, startTestServer } from '../../../test/helpers/local-server';
import { startWebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { attempts, importCensus, settledAttempts } from '../../../test/helpers/delivery-test-kit';
import { getEvent } from './deliveries-repo';
import { newWebhookSecret } from './webhook-secret';

const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.();
});

/** Retry 1 comes at once; retry 2 a minute later (a redelivery comes before it); the rest at once again. */
const DELAYS = [50, 60_000, 50, 50, 50];

async function setup() {
  const receiver = await startWebhookReceiver({ status: 500 });
  cleanup.push(() => receiver.close());
  const gaveUp: DeliveryFailure[] = [];
  const server = await startTestServer({
    webhook: { url: receiver.url, secret: newWebhookSecret() }, retryDelaysMs: DELAYS, deliveryTimeoutMs: 20_000,
    deliveryFailed: (failure) => gaveUp.push(failure),
  });
  cleanup.push(() => server.stop());
  const token = await getToken(server.url);
  const redeliver = async (id: number) => {
    const res = await api(server.url, token, 'POST', `/local/v1/deliveries/${id}/redeliver`);
    expect(res.status).toBe(202);
    return res.body as DeliveryAttempt;
  };
  return { receiver, server, token, gaveUp, redeliver };
}

const rows = (list: DeliveryAttempt[]) => list.map((a) => [a.type, a.status, a.httpStatusCode, a.attemptCount]);

describe('a redelivery while automatic retries remain', () => {
  it('ends the retries when it is delivered: the event is delivered, no retry is left and no failure is reported', async () => {
    const { receiver, server, token, gaveUp, redeliver } = await setup();
    await importCensus(server.url, token);
    const [first, retry] = await settledAttempts(server.url, token, 2);
    receiver.script({ status: 200 });
    const again = await redeliver(retry?.id ?? 0);
    expect(again).toMatchObject({ type: 2, status: 1, attemptCount: 2 });
    const list = await settledAttempts(server.url, token, 3);
    expect(rows(list)).toEqual([[1, 3, 500, 0], [2, 3, 500, 1], [2, 2, 200, 2]]);

    // The state table: PENDING → SUCCESS on any 2xx, and once delivered nothing is left to retry.
    expect(getEvent(server.ctx.db, first?.eventId ?? '')).toMatchObject({ state: 'delivered', next_attempt_at: null });
    await server.ctx.deliveries.idle();
    expect(gaveUp).toEqual([]);
    expect(receiver.requests).toHaveLength(3);
  });

  it('counts a failed one as the next retry: the automatic ones go on from it, and the event fails once', async () => {
    const { receiver, server, token, gaveUp, redeliver } = await setup();
    await importCensus(server.url, token);
    const [first, retry] = await settledAttempts(server.url, token, 2);
    // Retry 2 is a minute away: the redelivery is retry 2, and retry 3 follows it after its own short delay.
    const again = await redeliver(retry?.id ?? 0);
    expect(again).toMatchObject({ type: 2, status: 1, attemptCount: 2 });
    const list = await settledAttempts(server.url, token, 6);
    expect(list[2]?.id).toBe(again.id);
    expect(rows(list)).toEqual([[1, 3, 500, 0], [2, 3, 500, 1], [2, 3, 500, 2], [2, 3, 500, 3], [2, 3, 500, 4], [2, 3, 500, 5]]);
    await server.ctx.deliveries.idle();
    expect(getEvent(server.ctx.db, first?.eventId ?? '')).toMatchObject({ state: 'failed', retries_done: 5, next_attempt_at: null });
    expect(gaveUp).toEqual([{ clientId: TEST_CLIENT.id, eventId: first?.eventId, eventType: 'import.processed', url: receiver.url }]);

    // Asked for again once it is FAILED (the engine, as the desktop app asks): a failure is not a second "gave up".
    expect(server.ctx.deliveries.redeliver(TEST_CLIENT.id, first?.id ?? 0)).toMatchObject({ attempt: { type: 2, attemptCount: 5 } });
    await settledAttempts(server.url, token, 7);
    await server.ctx.deliveries.idle();
    expect(gaveUp).toHaveLength(1);
    expect(getEvent(server.ctx.db, first?.eventId ?? '')).toMatchObject({ state: 'failed', retries_done: 5 });

    // And a success then does reach the URL: the event is delivered after all.
    receiver.script({ status: 204 });
    server.ctx.deliveries.redeliver(TEST_CLIENT.id, first?.id ?? 0);
    const last = (await settledAttempts(server.url, token, 8))[7];
    expect(last).toMatchObject({ type: 2, status: 2, httpStatusCode: 204, attemptCount: 5 });
    expect(getEvent(server.ctx.db, first?.eventId ?? '')).toMatchObject({ state: 'delivered' });
    expect(gaveUp).toHaveLength(1);
    expect((await attempts(server.url, token)).filter((a) => a.eventId === first?.eventId)).toHaveLength(8);
  });
});
