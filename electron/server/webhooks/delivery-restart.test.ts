import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, eventually, getToken, spawnServerCli, startTestServer, tempDir } from '../../../test/helpers/local-server';
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
  const start = async (retryDelaysMs: number[], deliveryTimeoutMs = 2000): Promise<TestServer> => {
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
    // The first retry is far enough away that the server is stopped before it.
    const first = await start([3000, 50, 50, 50, 50]);
    await importCensus(first.url, await getToken(first.url));
    await settledAttempts(first.url, await getToken(first.url), 1);
    await first.stop();
    expect(receiver.requests).toHaveLength(1);

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
    expect((await attempts(first.url, token))[0]).toMatchObject({ status: 1, httpStatusCode: null, durationMs: 0 });
    await first.stop();

    const second = await start([50, 50, 50, 50, 50]);
    const list = await settledAttempts(second.url, await getToken(second.url), 2);
    expect(list.map((a) => [a.type, a.status, a.httpStatusCode, a.attemptCount])).toEqual([[1, 3, null, 0], [2, 2, 200, 1]]);
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
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([list[0]?.eventId, list[0]?.eventId]);
  });
});
