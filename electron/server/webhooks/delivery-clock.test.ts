/**
 * The machine's clock set back an hour (NTP correcting a fast clock) while the local server retries a webhook: the
 * retries keep their delays, in this run and after a restart, and the redelivery limit keeps its 5 s. The real server
 * runs in this process, its wall clock (Date) moved as the system's would be; timers and performance.now() run on as
 * the monotonic clock does.
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryAttempt } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, getToken, startTestServer, tempDir } from '../../../test/helpers/local-server';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { attempts, importCensus } from '../../../test/helpers/delivery-test-kit';
import { newWebhookSecret } from './webhook-secret';

const HOUR = 3_600_000;
const RealDate = Date;

/** This process's wall clock an hour behind the system's, as Date.now() and new Date() read it (test/helpers/clock-skew.js in-process). */
class ClockSetBack extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() - HOUR);
    else super(...(args as [number]));
  }

  static override now() {
    return RealDate.now() - HOUR;
  }
}
/** Sets the wall clock back an hour from now on. */
const setClockBack = () => vi.stubGlobal('Date', ClockSetBack);

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  while (cleanup.length) await cleanup.pop()?.();
});

/**
 * Polls until `check` gives a value, at most `tries` times 50 ms apart. Counted, not timed by the wall clock, which
 * these tests move.
 */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i += 1) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not after ${tries} polls 50 ms apart`);
}

async function setup(retryDelaysMs: number[]) {
  const receiver = await startWebhookReceiver();
  const dataDir = await tempDir();
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }), () => receiver.close());
  const secret = newWebhookSecret();
  const start = async (): Promise<TestServer> => {
    const server = await startTestServer({ dataDir, webhook: { url: receiver.url, secret }, retryDelaysMs, deliveryTimeoutMs: 20_000 });
    cleanup.push(() => server.stop());
    return server;
  };
  return { receiver, start };
}

const requestsOf = (receiver: WebhookReceiver) => receiver.requests.length;
const summary = (list: DeliveryAttempt[]) => list.map((a) => [a.type, a.status, a.attemptCount]);

describe('webhook retries when the clock is set back an hour', () => {
  it('keeps every retry on its delay after the first attempt failed', async () => {
    // The first retry waits long enough for the clock to go back while it is scheduled on the clock as it was.
    const { receiver, start } = await setup([1000, 100, 100, 100, 100]);
    receiver.setFallback({ status: 500 });
    const server = await start();
    await importCensus(server.url, await getToken(server.url));
    await until('the first attempt recorded as failed', async () =>
      ((await attempts(server.url, await getToken(server.url))).some((a) => a.status === 3) ? true : undefined));
    setClockBack();

    await until('all six attempts', () => (requestsOf(receiver) === 6 ? true : undefined));
    await server.ctx.deliveries.idle();
    const list = await attempts(server.url, await getToken(server.url));
    expect(summary(list)).toEqual([[1, 3, 0], [2, 3, 1], [2, 3, 2], [2, 3, 3], [2, 3, 4], [2, 3, 5]]);
  });

  it('retries after a restart no later than the retry\'s delay, though the journaled time is an hour away now', async () => {
    const { receiver, start } = await setup([2000, 50, 50, 50, 50]);
    receiver.script({ status: 500 });
    const first = await start();
    await importCensus(first.url, await getToken(first.url));
    await until('the first attempt recorded as failed', async () =>
      ((await attempts(first.url, await getToken(first.url))).some((a) => a.status === 3) ? true : undefined));
    await first.stop();
    expect(requestsOf(receiver)).toBe(1);

    setClockBack();
    const second = await start();
    await until('the retry after the restart', () => (requestsOf(receiver) === 2 ? true : undefined));
    await second.ctx.deliveries.idle();
    expect(summary(await attempts(second.url, await getToken(second.url)))).toEqual([[1, 3, 0], [2, 2, 1]]);
  });
});

describe('the redelivery limit when the clock is set back an hour', () => {
  it('still asks for at most 5 s', async () => {
    const { receiver, start } = await setup([50, 50, 50, 50, 50]);
    const server = await start();
    const token = await getToken(server.url);
    await importCensus(server.url, token);
    const [delivered] = await until('the delivery', async () => {
      const list = await attempts(server.url, token);
      return list[0]?.status === 2 ? list : undefined;
    });
    // The second ask follows the first at once (the limit counts 5 s of real time from the first): only a token
    // issued on the clock as it is now comes between them, not the redelivery's arrival, which is waited for after.
    const redeliver = (as: string) => api(server.url, as, 'POST', `/local/v1/deliveries/${delivered?.id}/redeliver`);
    expect((await redeliver(token)).status).toBe(202);
    setClockBack();
    const again = await redeliver(await getToken(server.url));
    expect(again.status).toBe(429);
    const wait = Number(again.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(5);
    expect(JSON.stringify(again.body)).toContain(`try again in ${wait} s`);
    await until('the redelivery', () => (requestsOf(receiver) === 2 ? true : undefined));
    await server.ctx.deliveries.idle();
    expect(requestsOf(receiver)).toBe(2);
  });
});
