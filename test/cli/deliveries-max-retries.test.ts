/**
 * `deliveries --max-retries N` keeps the attempts whose attemptCount is at most N, and a retry's count includes itself;
 * the help says that, so a reader does not expect "at most N retries before them" (which would keep one more retry).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../shared';
import { runCli, uploaderEnv } from '../helpers/cli';
import { importCensus, settledAttempts } from '../helpers/delivery-test-kit';
import type { TestServer } from '../helpers/local-server';
import { getToken, startTestServer, tempDir } from '../helpers/local-server';
import type { WebhookReceiver } from '../helpers/webhook-receiver';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

describe('deliveries --max-retries', () => {
  let dir: string;
  let receiver: WebhookReceiver;
  let server: TestServer;
  let all: DeliveryAttempt[];
  beforeAll(async () => {
    dir = await tempDir('payroll-max-retries-');
    receiver = await startWebhookReceiver();
    receiver.script({ status: 500 }, { status: 500 });
    server = await startTestServer({ webhook: { url: receiver.url }, retryDelaysMs: [50, 50, 50, 50, 50] });
    const token = await getToken(server.url);
    await importCensus(server.url, token);
    all = await settledAttempts(server.url, token, 3);
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps attempts whose retry count, a retry counting itself, is at most N, as its help says', async () => {
    expect(all.map((a) => [a.type, a.attemptCount])).toEqual([[1, 0], [2, 1], [2, 2]]);
    const listed = await runCli(['deliveries', '--base-url', server.url, '--max-retries', '1', '--json'], uploaderEnv(join(dir, 'data')));
    expect(listed.code).toBe(0);
    // Retry 1 has one retry before it counted (itself), not the first attempt's zero: it is kept; retry 2 is not.
    expect((JSON.parse(listed.stdout) as DeliveryAttempt[]).map((a) => a.attemptCount)).toEqual([1, 0]);

    const help = await runCli(['deliveries', '--help']);
    expect(help.stdout).toContain(
      '--max-retries N, 0..5, keeps attempts whose retry count (the RETRIES column: 0 for a first attempt, and for a\n'
      + '  retry the retries so far, itself included) is at most N, so 0 lists first attempts only;',
    );
    expect(help.stdout).not.toContain('retries before them');
  });
});
