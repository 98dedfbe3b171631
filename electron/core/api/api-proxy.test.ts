import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, startTestServer, tempDir } from '../../../test/helpers/local-server';
import type { TestProxy } from '../../../test/helpers/proxy';
import { startTestProxy } from '../../../test/helpers/proxy';
import { NetworkError } from './api-errors';
import type { ApiClient, ApiClientOptions } from './api-client';
import { createApiClient } from './api-client';
import type { TestCert } from '../../../test/helpers/api-kit';
import { makeTestCert } from '../../../test/helpers/api-kit';

const HOST = 'payroll.test';
const PROXY_VARS = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'];
const census = (registration: string) => ({
  lastName: 'Silva', firstName: 'Ana', employeeRegistration: registration, hireDate: '2024-03-01', employeeStatus: 'ACTIVE',
});

describe('proxies and TLS', () => {
  let certDir: string;
  let cert: TestCert;
  let tlsServer: TestServer;
  let httpServer: TestServer;
  let proxy: TestProxy;
  const clients: ApiClient[] = [];

  /** Creates a client with exactly `env` as the proxy variables (the client reads them once, at creation). */
  function clientWithEnv(env: Record<string, string>, options: Partial<ApiClientOptions> & { baseUrl: string }): ApiClient {
    const saved = PROXY_VARS.map((name) => [name, process.env[name]] as const);
    for (const name of PROXY_VARS) delete process.env[name];
    Object.assign(process.env, env);
    try {
      const c = createApiClient({
        ca: cert.certPem, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 5 },
        credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
        ...options,
      });
      clients.push(c);
      return c;
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }

  beforeAll(async () => {
    certDir = await tempDir('payroll-cert-');
    cert = await makeTestCert(certDir, [HOST]);
    tlsServer = await startTestServer({ tls: { cert: cert.cert, key: cert.key } });
    httpServer = await startTestServer();
    // payroll.test does not resolve: only the proxy knows it is the TLS server.
    proxy = await startTestProxy({ remap: (host, port) => (host === HOST ? { host: '127.0.0.1', port: tlsServer.port } : { host, port }) });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await proxy.close();
    await tlsServer.stop();
    await httpServer.stop();
    await rm(certDir, { recursive: true, force: true });
  });

  it('tunnels https through HTTPS_PROXY from the environment', async () => {
    const before = proxy.requests.length;
    const api = clientWithEnv({ HTTPS_PROXY: proxy.url }, { baseUrl: `https://${HOST}:${tlsServer.port}` });
    const created = await api.sendBatch('census', [census('P-1')]);
    expect(created.status).toBe('QUEUED');
    expect(proxy.requests.slice(before)).toContain(`${HOST}:${tlsServer.port}`);
  });

  it('connects directly to a host listed in NO_PROXY', async () => {
    const before = proxy.requests.length;
    const api = clientWithEnv({ https_proxy: proxy.url, NO_PROXY: `example.org, .${HOST}` }, { baseUrl: `https://${HOST}:${tlsServer.port}` });
    const error = await api.getToken().catch((e: unknown) => e);
    // Directly, the made-up name cannot be resolved: proof that the proxy was skipped.
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).requestSent).toBe(false);
    expect((error as NetworkError).message).toMatch(/^cannot reach POST https:\/\/payroll\.test:\d+\/oauth\/v1\/access-token: /);
    expect(proxy.requests.length).toBe(before);
  });

  it('never sends loopback targets through an environment proxy', async () => {
    const before = proxy.requests.length;
    const api = clientWithEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }, { baseUrl: httpServer.url });
    await api.sendBatch('census', [census('P-2')]);
    expect(proxy.requests.length).toBe(before);
  });

  it('sends every request, loopback included, through an explicit proxy, ignoring the environment', async () => {
    const before = proxy.requests.length;
    const api = clientWithEnv({ NO_PROXY: '*' }, { baseUrl: httpServer.url, proxy: proxy.url });
    await api.sendBatch('census', [census('P-3')]);
    expect(proxy.requests.slice(before)).toContain(`127.0.0.1:${httpServer.port}`);
  });

  it('ignores the environment when the proxy setting is empty', async () => {
    const before = proxy.requests.length;
    const api = clientWithEnv({ HTTPS_PROXY: proxy.url }, { baseUrl: tlsServer.url, proxy: '' });
    await api.getToken();
    expect(proxy.requests.length).toBe(before);
  });

  it('talks https directly when the certificate is trusted', async () => {
    const api = clientWithEnv({}, { baseUrl: tlsServer.url });
    expect((await api.sendBatch('census', [census('P-4')])).records).toBe(1);
  });

  it('refuses a certificate it does not trust, without retrying', async () => {
    const retries: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (m: string) => retries.push(m), child: () => logger };
    const api = clientWithEnv({}, { baseUrl: tlsServer.url, ca: undefined, logger, retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 5 } });
    const error = await api.getToken().catch((e: unknown) => e);
    expect(retries).toEqual([]);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).requestSent).toBe(false);
    expect((error as NetworkError).message).toContain('not trusted');
  });

  it('refuses a proxy address it cannot use, naming where it came from', () => {
    expect(() => clientWithEnv({ HTTPS_PROXY: 'socks5://127.0.0.1:1080' }, { baseUrl: tlsServer.url }))
      .toThrow(/HTTPS_PROXY uses socks5/);
  });
});
