import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../lib/logger';
import { faultStore } from '../../server/local/fault-store';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, eventually, getToken, startTestServer } from '../../../test/helpers/local-server';
import type { TestProxy } from '../../../test/helpers/proxy';
import { startTestProxy } from '../../../test/helpers/proxy';
import { ApiError, NetworkError } from './api-errors';
import type { ApiClient, ApiClientOptions } from './api-client';
import { createApiClient } from './api-client';
import { loggedRequests, setFaults } from '../../../test/helpers/api-kit';

const census = (registration: string) => ({
  lastName: 'Silva', firstName: 'Ana', employeeRegistration: registration, hireDate: '2024-03-01', employeeStatus: 'ACTIVE',
});

describe('retries against the local server with injected faults', () => {
  let server: TestServer;
  let admin: string;
  let proxy: TestProxy;
  const clients: ApiClient[] = [];
  const warnings: string[] = [];
  /** Runs on the first retry warning: the moment between a failed attempt and the next one. */
  let onRetry: (() => void) | undefined;
  const logger: Logger = {
    debug: () => undefined, info: () => undefined, error: () => undefined,
    warn: (m) => {
      warnings.push(m);
      const run = onRetry;
      onRetry = undefined;
      run?.();
    },
    child: () => logger,
  };
  const client = (extra: Partial<ApiClientOptions> = {}) => {
    const c = createApiClient({
      baseUrl: server.url, proxy: '', logger, retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 },
      credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
      ...extra,
    });
    clients.push(c);
    return c;
  };
  const importCount = () => (server.ctx.db.prepare('SELECT count(*) AS n FROM imports').get() as { n: number }).n;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await getToken(server.url);
    proxy = await startTestProxy();
  });
  afterEach(async () => {
    onRetry = undefined;
    warnings.length = 0;
    await setFaults(server.url, admin, []);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await proxy.close();
    await server.stop();
  });

  it('makes one token request for 20 concurrent calls', async () => {
    const api = client();
    const before = loggedRequests(server, '/oauth%').length;
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => api.sendBatch('census', [census(`C-${i}`)])));
    expect(created).toHaveLength(20);
    expect(loggedRequests(server, '/oauth%').length - before).toBe(1);
  });

  it('makes a new token request at every call when tokens live only 60 s', async () => {
    const short = await startTestServer({ tokenTtlSeconds: 60 });
    try {
      const api = client({ baseUrl: short.url });
      for (let i = 0; i < 3; i++) await api.sendBatch('census', [census(`T-${i}`)]);
      expect(loggedRequests(short, '/oauth%')).toHaveLength(3);
    } finally {
      await short.stop();
    }
  });

  it('retries a census POST answered 503, then succeeds', async () => {
    const api = client();
    await api.getToken();
    await setFaults(server.url, admin, [{ pathPrefix: '/law/api/v1/census', errorRate: 1 }]);
    onRetry = () => faultStore(server.ctx).clear();
    const created = await api.sendBatch('census', [census('F-1')]);
    expect(created.status).toBe('QUEUED');
    const statuses = loggedRequests(server, '/law/api/v1/census').slice(-2).map((r) => r.status);
    expect(statuses).toEqual([503, 201]);
    expect(warnings[0]).toContain('503');
  });

  it('gives up on 503 after the configured retries', async () => {
    const api = client();
    await api.getToken();
    const before = loggedRequests(server, '/law/api/v1/receipt').length;
    await setFaults(server.url, admin, [{ pathPrefix: '/law/api/v1/receipt', errorRate: 1 }]);
    const error = await api.sendBatch('receipt', [{}]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).retryable).toBe(true);
    expect(loggedRequests(server, '/law/api/v1/receipt').length - before).toBe(3);
  });

  it('does not retry a census POST answered 500 (it may have been processed)', async () => {
    const api = client();
    await api.getToken();
    const before = loggedRequests(server, '/law/api/v1/census').length;
    await setFaults(server.url, admin, [{ pathPrefix: '/law/api/v1/census', errorRate: 1, errorStatus: 500 }]);
    await expect(api.sendBatch('census', [census('F-2')])).rejects.toMatchObject({ status: 500 });
    expect(loggedRequests(server, '/law/api/v1/census').length - before).toBe(1);
  });

  it('retries a GET answered 500', async () => {
    const api = client();
    await api.getToken();
    const before = loggedRequests(server, '/law/api/v1/deliveries%').length;
    await setFaults(server.url, admin, [{ pathPrefix: '/law/api/v1/deliveries', errorRate: 1, errorStatus: 500 }]);
    await expect(api.listDeliveries()).rejects.toMatchObject({ status: 500, retryable: true });
    expect(loggedRequests(server, '/law/api/v1/deliveries%').length - before).toBe(3);
  });

  it('retries a token request whose connection was dropped', async () => {
    const api = client();
    await setFaults(server.url, admin, [{ pathPrefix: '/oauth/v1/access-token', dropRate: 1 }]);
    onRetry = () => faultStore(server.ctx).clear();
    expect(await api.getToken()).toMatch(/^ey/);
    expect(warnings[0]).toContain('connection broke');
  });

  it('does not resend a census POST whose connection broke after sending: the outcome is unknown', async () => {
    const api = client();
    await api.getToken();
    const before = loggedRequests(server, '/law/api/v1/census').length;
    await setFaults(server.url, admin, [{ pathPrefix: '/law/api/v1/census', dropRate: 1 }]);
    const error = await api.sendBatch('census', [census('F-3')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).requestSent).toBe(true);
    expect((error as NetworkError).message).toMatch(/outcome is unknown/);
    expect(loggedRequests(server, '/law/api/v1/census').length - before).toBe(1);
  });

  it('does not resend a census batch the server took when its answer was lost on the way', async () => {
    const api = client({ proxy: proxy.url });
    await api.getToken();
    const before = importCount();
    proxy.dropNextAnswers(1);
    const error = await api.sendBatch('census', [census('F-4')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).requestSent).toBe(true);
    // The server did queue it: sending again would have imported it twice.
    expect(importCount()).toBe(before + 1);
  });

  it('reads an import result by id, and 404s an unknown one', async () => {
    const api = client();
    const created = await api.sendBatch('census', [census('G-1')]);
    const result = await eventually(async () => {
      const r = await api.getImport(created.id);
      return r.status === 'PROCESSED' ? r : undefined;
    });
    expect(result).toMatchObject({ id: created.id, kind: 'census', source: 'json', acceptedRecords: 1, rejectedRecords: 0 });
    await expect(api.getImport('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
  });
});
