import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, eventually, startTestServer } from '../../../test/helpers/local-server';
import type { WebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { startWebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { ApiError } from './api-errors';
import type { ApiClient } from './api-client';
import { createApiClient } from './api-client';

describe('delivery audit through the client', () => {
  let receiver: WebhookReceiver;
  let server: TestServer;
  let api: ApiClient;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ status: 204 });
    server = await startTestServer({ webhook: { url: receiver.url } });
    api = createApiClient({
      baseUrl: server.url, proxy: '', retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 5 },
      credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
    });
  });
  afterAll(async () => {
    api.close();
    await server.stop();
    await receiver.close();
  });

  it('lists the attempts, filters them and reads one by id', async () => {
    await api.sendBatch('census', [{ lastName: 'Silva', firstName: 'Ana', employeeRegistration: 'D-1', hireDate: '2024-03-01', employeeStatus: 'ACTIVE' }]);
    const list = await eventually(async () => {
      const found = await api.listDeliveries({ status: 2 });
      return found.length > 0 ? found : undefined;
    });
    const first = list[0];
    expect(first).toMatchObject({ type: 1, status: 2, httpStatusCode: 204, attemptCount: 0, eventType: 'import.processed' });
    expect(await api.getDelivery(first?.id ?? -1)).toEqual(first);
    expect(await api.listDeliveries({ status: 3, maxRetries: 0, limit: 5 })).toEqual([]);
  });

  it('turns a bad filter into a 400 and an unknown id into a 404', async () => {
    const bad = await api.listDeliveries({ status: 9 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect((bad as ApiError).status).toBe(400);
    expect((bad as ApiError).messages.join(' ')).toContain('status');
    await expect(api.getDelivery(987654)).rejects.toMatchObject({ status: 404 });
  });
});
