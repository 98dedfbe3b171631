import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { createLogger } from '../../lib/logger';
import { TEST_CLIENT, api, eventually, getToken, spawnServerCli, startTestServer, tempDir } from '../../../test/helpers/local-server';
import { startWebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { newWebhookSecret } from './webhook-secret';
import { attempts, importCensus, settledAttempts, verified } from '../../../test/helpers/delivery-test-kit';

const cleanup: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.();
});

async function setup() {
  const receiver = await startWebhookReceiver();
  const dataDir = await tempDir();
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }), () => receiver.close());
  const secret = newWebhookSecret();
  const start = async (retryDelaysMs: number[], deliveryTimeoutMs = 20_000): Promise<TestServer> => {
    const server = await startTestServer({ dataDir, webhook: { url: receiver.url, secret }, retryDelaysMs, deliveryTimeoutMs });
    cleanup.push(() => server.stop());
    return server;
  };
  return { receiver, dataDir, secret, start };
}

describe('delivery schedule across restarts', () => {
  it('continues the retries of a stopped server in the next one', async () => {
    const { receiver, secret, start } = await setup();
    receiver.script({ status: 500 });
    // The first retry is a minute away: the server is stopped before it, however slowly the test gets there.
    const first = await start([60_000, 50, 50, 50, 50]);
    await importCensus(first.url, await getToken(first.url));
    await settledAttempts(first.url, await getToken(first.url), 1);
    await first.stop();
    expect(receiver.requests).toHaveLength(1);

    // Started with a first retry of 3 s, the next run sends it within those 3 s, though the journaled time is later.
    const second = await start([3000, 50, 50, 50, 50]);
    const list = await settledAttempts(second.url, await getToken(second.url), 2);
    expect(list.map((a) => [a.type, a.status, a.httpStatusCode, a.attemptCount])).toEqual([[1, 3, 500, 0], [2, 2, 200, 1]]);
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([list[0]?.eventId, list[0]?.eventId]);
    for (const request of receiver.requests) expect(() => verified(secret, request)).not.toThrow();
  });

  it('closes an attempt cut off by stop as FAILED and resumes the event at the next start', async () => {
    const { receiver, start } = await setup();
    receiver.script({ hang: true });
    const first = await start([50, 50, 50, 50, 50], 20_000);
    const token = await getToken(first.url);
    await importCensus(first.url, token);
    await eventually(() => (receiver.requests.length === 1 ? true : undefined));
    expect((await attempts(first.url, token))[0]).toMatchObject({ status: 1, httpStatusCode: null, durationMs: 0, failure: null });
    // The attempt has been in flight at least this long when the stop ends it.
    const inFlightMs = 50;
    await new Promise((resolve) => setTimeout(resolve, inFlightMs));
    await first.stop();

    const second = await start([50, 50, 50, 50, 50]);
    const list = await settledAttempts(second.url, await getToken(second.url), 2);
    expect(list.map((a) => [a.type, a.status, a.httpStatusCode, a.attemptCount])).toEqual([[1, 3, null, 0], [2, 2, 200, 1]]);
    expect(list.map((a) => a.failure)).toEqual(['the server stopped before the attempt finished', null]);
    // Unlike a crash's (duration 0: the next start cannot know it), a stop records the time the attempt had run.
    expect(list[0]?.durationMs).toBeGreaterThanOrEqual(inFlightMs);
  });

  it('closes an attempt a crash left PENDING as FAILED, and the schedule goes on', async () => {
    const { receiver, dataDir, secret, start } = await setup();
    receiver.script({ hang: true });
    const cli = await spawnServerCli([
      '--port', '0', '--data-dir', dataDir, '--client', `${TEST_CLIENT.id}:${TEST_CLIENT.secret}:${SCOPES.join(',')}`,
      '--webhook-url', receiver.url, '--webhook-secret', secret, '--retry-delays', '50,50,50,50,50',
    ], { PAYROLL_LOG_LEVEL: 'silent' });
    cleanup.push(() => cli.stop('SIGKILL'));
    await importCensus(cli.url, await getToken(cli.url));
    await eventually(() => (receiver.requests.length === 1 ? true : undefined));
    await cli.stop('SIGKILL');

    const server = await start([50, 50, 50, 50, 50]);
    const list = await settledAttempts(server.url, await getToken(server.url), 2);
    expect(list.map((a) => [a.type, a.status, a.httpStatusCode, a.attemptCount])).toEqual([[1, 3, null, 0], [2, 2, 200, 1]]);
    expect(list[0]).toMatchObject({ failure: 'the server stopped before the attempt finished', durationMs: 0 });
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([list[0]?.eventId, list[0]?.eventId]);
  });
});

describe('a remote webhook URL across restarts', () => {
  it('is not sent to by a start without --allow-remote-webhooks, which says why', async () => {
    const { receiver, dataDir } = await setup();
    // 0.0.0.0 is not this machine by the loopback rule, yet a connection to it reaches the receiver on
    // 127.0.0.1 (Linux, macOS): a request the receiver gets would be a connection to a "remote" host.
    const remote = receiver.url.replace('127.0.0.1', '0.0.0.0');
    const first = await startTestServer({ dataDir, allowRemoteWebhooks: true });
    cleanup.push(() => first.stop());
    expect((await api(first.url, await getToken(first.url), 'PUT', '/local/v1/webhook', { url: remote })).status).toBe(200);
    await first.stop();

    const lines: string[] = [];
    const second = await startTestServer({
      dataDir, retryDelaysMs: [60_000, 60_000, 60_000, 60_000, 60_000], deliveryTimeoutMs: 2000,
      logger: createLogger('test-server', (line) => lines.push(line)),
    });
    cleanup.push(() => second.stop());
    const token = await getToken(second.url);
    const reason = `the webhook URL ${remote} names a host other than this machine (0.0.0.0); start the server with --allow-remote-webhooks to send there`;
    expect((await api(second.url, token, 'GET', '/local/v1/webhook')).body).toEqual({ url: remote, secretSet: true, problem: reason });

    await importCensus(second.url, token);
    const [attempt] = await settledAttempts(second.url, token, 1);
    expect(attempt).toMatchObject({ type: 1, status: 3, httpStatusCode: null, durationMs: 0, attemptCount: 0, failure: `not sent: ${reason}` });
    expect(lines.join('')).toContain(`attempt ${attempt?.id} of ${attempt?.eventId} was not sent: ${reason}`);
    // A redelivery asked for by hand is refused the same way.
    expect((await api(second.url, token, 'POST', `/local/v1/deliveries/${attempt?.id}/redeliver`)).status).toBe(202);
    const list = await settledAttempts(second.url, token, 2);
    expect(list.map((a) => [a.type, a.status, a.httpStatusCode, a.durationMs, a.failure])).toEqual([[1, 3, null, 0, `not sent: ${reason}`], [2, 3, null, 0, `not sent: ${reason}`]]);
    expect(receiver.requests).toHaveLength(0);

    // Registered again, on this machine, it is delivered.
    expect((await api(second.url, token, 'PUT', '/local/v1/webhook', { url: receiver.url })).status).toBe(200);
    expect((await api(second.url, token, 'GET', '/local/v1/webhook')).body).toEqual({ url: receiver.url, secretSet: true });
    await importCensus(second.url, token);
    await settledAttempts(second.url, token, 3);
    expect(receiver.requests).toHaveLength(1);
  });
});
