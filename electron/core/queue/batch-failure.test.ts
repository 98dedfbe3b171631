/**
 * How a manual batch that did not get through is journaled, against the real local server: `unknown` when the
 * service took it and the answer was lost on the way (a real pass-through proxy cuts the connection after the 201),
 * or when it failed while taking it (500); `failed` only when it surely holds nothing (a refusal, a 503, no
 * connection at the token endpoint). Each reason in the clerk's words.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { setFaults } from '../../../test/helpers/api-kit';
import { getToken, TEST_CLIENT } from '../../../test/helpers/local-server';
import { startTestProxy, type TestProxy } from '../../../test/helpers/proxy';
import { startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { createLogger } from '../../lib/logger';
import { createApiClient, type ApiClient } from '../api';

let env: QueueEnv | undefined;
let proxy: TestProxy | undefined;
let api: ApiClient | undefined;
afterEach(async () => {
  api?.close();
  await env?.close();
  await proxy?.close();
  env = undefined;
  proxy = undefined;
  api = undefined;
});

const person = (registration: string) => ({
  lastName: 'Silva', firstName: 'Ana', employeeRegistration: registration, hireDate: '2024-03-01', employeeStatus: 'ACTIVE',
});

const client = (baseUrl: string, via = '') => createApiClient({
  baseUrl, proxy: via, retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 50 },
  credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
  logger: createLogger('test-api', () => undefined),
});

const importCount = (e: QueueEnv) => (e.server.ctx.db.prepare('SELECT count(*) AS n FROM imports').get() as { n: number }).n;

describe('a manual batch that did not get through', () => {
  it('is of unknown outcome when the service took it and its answer was lost, and says to check before sending again', async () => {
    env = await startQueueEnv();
    proxy = await startTestProxy();
    api = client(env.server.url, proxy.url);
    await api.getToken();
    const queue = env.queue({ api });
    await queue.start();
    const before = importCount(env);
    proxy.dropNextAnswers(1);
    const result = await queue.sendBatch('census', [person('U-1')]);
    // The service imported it: a second send would import it twice.
    expect(importCount(env)).toBe(before + 1);
    expect(result.created).toBeUndefined();
    expect(result.batch.state).toBe('unknown');
    expect(result.batch.error).toBe(`The records went to the service at ${env.server.url} (through proxy ${proxy.url}), but no answer came back `
      + '(connection reset). The service may have imported the records: look at its imports, or ask your '
      + 'service provider, before sending them again, since a second send would import them twice.');
    expect(queue.batches()[0]).toEqual(result.batch);
  });

  it('is of unknown outcome, sent once, when a gateway passed it on and answered 504 (the service took it too late)', async () => {
    env = await startQueueEnv();
    const upstream = new URL(env.server.url);
    let posts = 0;
    // A gateway (a load balancer, a reverse proxy) in front of the service: it passes the POST on, and the service's
    // answer comes too late for it.
    const gateway = createServer((req, res) => {
      const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        const body: Buffer[] = [];
        up.on('data', (chunk: Buffer) => body.push(chunk));
        up.on('end', () => {
          if (req.method === 'POST' && req.url === '/law/api/v1/census') {
            posts++;
            res.writeHead(504, { 'content-type': 'text/plain' }).end('Gateway Timeout');
          } else {
            res.writeHead(up.statusCode ?? 502, up.headers).end(Buffer.concat(body));
          }
        });
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    try {
      api = client(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}`);
      const queue = env.queue({ api });
      await queue.start();
      const before = importCount(env);
      const result = await queue.sendBatch('census', [person('G-1')]);
      // Sent once, imported once: not sent again on its own, and not called failed.
      expect(posts).toBe(1);
      expect(importCount(env)).toBe(before + 1);
      expect(result.batch.state).toBe('unknown');
      expect(result.batch.error).toMatch(/^A gateway or proxy between the app and the service answered HTTP 504 \(Gateway Timeout\), after it may have passed the records on\. The service may have imported the records: look at its imports, or ask your service provider, before sending them again/);
      expect(result.batch.error).not.toMatch(/Nothing was imported/);
    } finally {
      gateway.close();
    }
  });

  it('is of unknown outcome when the service failed while taking it (500), with the trace id', async () => {
    env = await startQueueEnv();
    const queue = env.queue();
    await queue.start();
    await setFaults(env.server.url, await getToken(env.server.url), [{ pathPrefix: '/law/api/v1/census', errorRate: 1, errorStatus: 500 }]);
    const result = await queue.sendBatch('census', [person('U-2')]);
    expect(result.batch.state).toBe('unknown');
    expect(result.batch.error).toMatch(/^The service failed while taking the records: injected fault: .*\(trace id [0-9a-f]{32}: give it to support if this goes on\)\. The service may have imported the records: look at its imports/);
  });

  it('failed, in words, when nothing answers at the token endpoint: nothing was sent', async () => {
    env = await startQueueEnv();
    api = client('http://127.0.0.1:9');
    const queue = env.queue({ api });
    await queue.start();
    const result = await queue.sendBatch('census', [person('U-3')]);
    expect(result.batch.state).toBe('failed');
    expect(result.batch.error).toBe('Nothing answers at http://127.0.0.1:9 (connection refused). Check the base URL, and that the service is running, then try again.');
  });

  it('failed when the service said it could not take it now (503) or refused it (422), which leaves nothing behind', async () => {
    env = await startQueueEnv();
    const queue = env.queue();
    await queue.start();
    const before = importCount(env);
    const refused = await queue.sendBatch('census', [person('U-4'), person('U-4')]);
    expect(refused.batch).toMatchObject({ state: 'failed', error: '[1] repeats employeeRegistration U-4 of [0]' });
    await setFaults(env.server.url, await getToken(env.server.url), [{ pathPrefix: '/law/api/v1/census', errorRate: 1, errorStatus: 503 }]);
    const busy = await queue.sendBatch('census', [person('U-5')]);
    expect(busy.batch.state).toBe('failed');
    expect(busy.batch.error).toMatch(/^The service could not take the records now: injected fault: .*\(trace id [0-9a-f]{32}: give it to support if this goes on\)\. Nothing was imported: send them again in a while\.$/);
    expect(importCount(env)).toBe(before);
  });
});
