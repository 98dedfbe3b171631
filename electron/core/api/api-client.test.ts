import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../lib/logger';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, startTestServer } from '../../../test/helpers/local-server';
import { ApiError, InsecureUrlError, NetworkError } from './api-errors';
import type { ApiClient, ApiClientOptions } from './api-client';
import { createApiClient } from './api-client';

const FAST = { retries: 2, baseDelayMs: 1, maxDelayMs: 5 };
const census = (registration: string) => ({
  lastName: 'Silva', firstName: 'Ana', employeeRegistration: registration, hireDate: '2024-03-01', employeeStatus: 'ACTIVE',
});

/** A logger that keeps every line, at every level. */
function collectingLogger(lines: string[] = []): Logger & { lines: string[] } {
  const make = (prefix: string): Logger => ({
    debug: (m) => lines.push(`${prefix} ${m}`), info: (m) => lines.push(`${prefix} ${m}`),
    warn: (m) => lines.push(`${prefix} ${m}`), error: (m) => lines.push(`${prefix} ${m}`),
    child: (sub) => make(`${prefix}:${sub}`),
  });
  return Object.assign(make('api'), { lines });
}

const clients: ApiClient[] = [];
function client(baseUrl: string, extra: Partial<ApiClientOptions> = {}): ApiClient {
  const c = createApiClient({
    baseUrl, proxy: '', retry: FAST,
    credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
    ...extra,
  });
  clients.push(c);
  return c;
}

describe('api client against the local server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.stop();
  });

  it('shares one token between 20 concurrent callers', async () => {
    const api = client(server.url);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => api.getToken()));
    // Every issued token has its own random jti, so equal strings mean a single token request.
    expect(new Set(tokens).size).toBe(1);
    expect(await api.getToken()).toBe(tokens[0]);
  });

  it('sends a census batch and returns the 201 body', async () => {
    const created = await client(server.url).sendBatch('census', [census('E-1'), census('E-2')]);
    expect(created).toMatchObject({ status: 'QUEUED', records: 2 });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('turns a 400 into an ApiError with the server messages and trace id', async () => {
    const error = await client(server.url).sendBatch('census', [{ ...census('E-3'), hireDate: '2024-02-30' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const api = error as ApiError;
    expect(api.status).toBe(400);
    expect(api.title).toBe('Bad Request');
    expect(api.messages.join(' ')).toContain('hireDate');
    expect(api.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(api.retryable).toBe(false);
    expect(api.message).toContain('POST /law/api/v1/census');
  });

  it('turns a 422 into an ApiError naming the broken rule', async () => {
    const error = await client(server.url).sendBatch('census', [census('E-4'), census('E-4')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).messages[0]).toContain('repeats employeeRegistration E-4');
  });

  it('reports wrong credentials as a 401 ApiError without ever showing the secret', async () => {
    const secret = 'very-secret-value-that-must-not-leak';
    const logger = collectingLogger();
    const api = client(server.url, { logger, credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: secret }) });
    const error = await api.sendBatch('census', [census('E-5')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).oauthError).toBe('invalid_client');
    const encoded = Buffer.from(`${TEST_CLIENT.id}:${secret}`).toString('base64');
    const seen = [
      String(error), (error as Error).stack ?? '', inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error),
      inspect(api, { depth: 10, showHidden: true }), JSON.stringify(api), ...logger.lines,
    ].join('\n');
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(seen).not.toContain(secret);
    expect(seen).not.toContain(encoded);
  });

  it('never shows the secret after a successful token request either', async () => {
    const logger = collectingLogger();
    const api = client(server.url, { logger });
    await api.sendBatch('census', [census('E-6')]);
    const seen = [inspect(api, { depth: 10, showHidden: true }), JSON.stringify(api), ...logger.lines].join('\n');
    expect(logger.lines.some((l) => l.includes('/law/api/v1/census -> 201'))).toBe(true);
    expect(seen).not.toContain(TEST_CLIENT.secret);
  });

  it('asks for the credentials at each token request, not at creation', async () => {
    let asked = 0;
    const api = client(server.url, {
      credentials: () => {
        asked++;
        return Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
      },
    });
    expect(asked).toBe(0);
    await api.getToken();
    await api.getToken();
    expect(asked).toBe(1);
  });
});

describe('token renewal', () => {
  it('renews a token that expires within 60 s at every call', async () => {
    const server = await startTestServer({ tokenTtlSeconds: 60 });
    try {
      const api = client(server.url);
      const first = await api.getToken();
      const second = await api.getToken();
      const created = await api.sendBatch('census', [census('R-1')]);
      expect(first).not.toBe(second);
      expect(created.records).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('drops a token the server refuses (401) and retries the call once with a new one', async () => {
    const first = await startTestServer();
    const port = first.port;
    const api = client(first.url);
    const oldToken = await api.getToken();
    await first.stop();
    // A new data folder means a new signing key: the cached token's signature is now wrong.
    const second = await startTestServer({ port });
    try {
      const created = await api.sendBatch('census', [census('R-2')]);
      expect(created.status).toBe('QUEUED');
      expect(await api.getToken()).not.toBe(oldToken);
    } finally {
      await second.stop();
    }
  });
});

describe('addresses and network failures', () => {
  it('refuses plain http to a non-loopback host at creation', () => {
    const make = (baseUrl: string) => () => client(baseUrl);
    expect(make('http://payroll.example.com')).toThrow(InsecureUrlError);
    expect(make('http://10.0.0.5:8787')).toThrow(/plain http/);
    expect(make('ftp://payroll.example.com')).toThrow(InsecureUrlError);
    expect(make('https://user:pw@payroll.example.com')).toThrow(InsecureUrlError);
    expect(make('not a url')).toThrow(InsecureUrlError);
    expect(make('https://payroll.example.com/sandbox')).not.toThrow();
    expect(make('http://localhost:8787')).not.toThrow();
    expect(make('http://127.1.2.3:8787')).not.toThrow();
    expect(make('http://[::1]:8787')).not.toThrow();
  });

  it('refuses an upload address with plain http to a non-loopback host', async () => {
    const api = client('http://127.0.0.1:9');
    await expect(api.uploadFile('http://storage.example.com/uploads/x?signature=y', '/nonexistent', { size: 1 })).rejects.toThrow(InsecureUrlError);
  });

  it('reports a closed port as a readable NetworkError that was never sent', async () => {
    const server = await startTestServer();
    const url = server.url;
    await server.stop();
    const error = await client(url).sendBatch('census', [census('N-1')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const network = error as NetworkError;
    expect(network.code).toBe('ECONNREFUSED');
    expect(network.requestSent).toBe(false);
    expect(network.message).toBe(`cannot reach POST ${url}/oauth/v1/access-token: connection refused`);
  });

  it('says that a plain http service does not speak https, instead of OpenSSL\'s "wrong version number"', async () => {
    const server = await startTestServer();
    const url = server.url.replace(/^http:/, 'https:');
    const error = await client(url).sendBatch('census', [census('T-1')]).catch((e: unknown) => e);
    await server.stop();
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(
      `cannot reach POST ${url}/oauth/v1/access-token: the service at this address does not speak https (it may be a plain http service: check the address, http:// or https://, and its port)`,
    );
  });
});
