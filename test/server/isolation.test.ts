/** Several clients on one server: each one's faults, webhooks, redeliveries and request log stay its own. */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared';
import { createLogger } from '../../electron/lib/logger';
import { csvText, censusRow } from '../helpers/csv-fixtures';
import { importCensus, settledAttempts } from '../helpers/delivery-test-kit';
import { grantFor, metadata, putFile } from '../helpers/file-handshake';
import type { TestServer } from '../helpers/local-server';
import { api, eventually, getToken, startTestServer, TEST_CLIENT } from '../helpers/local-server';
import type { WebhookReceiver } from '../helpers/webhook-receiver';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

const OTHER = { id: 'other-client', secret: 'other-secret-value-1' };
const census = [{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }];
type LogRow = { method: string; path: string; status: number; clientId: string | null; requestBody: string | null };

describe('one server, two clients', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let mine: string;
  let theirs: string;
  const lines: string[] = [];
  beforeAll(async () => {
    receiver = await startWebhookReceiver({ status: 500 });
    server = await startTestServer({
      clients: [{ ...TEST_CLIENT, scopes: [...SCOPES] }, { ...OTHER, scopes: [...SCOPES] }],
      logger: createLogger('isolation', (line) => lines.push(line)),
      retryDelaysMs: [60_000, 60_000, 60_000, 60_000, 60_000],
    });
    mine = await getToken(server.url);
    theirs = await getToken(server.url, OTHER);
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
  });

  it('a client\'s fault rules fail its own requests only', async () => {
    expect((await api(server.url, mine, 'PUT', '/local/v1/faults', [{ pathPrefix: '/law/api/v1/', errorRate: 1, errorStatus: 503 }])).status).toBe(200);
    expect((await api(server.url, mine, 'POST', '/law/api/v1/census', census)).status).toBe(503);
    expect((await api(server.url, theirs, 'POST', '/law/api/v1/census', census)).status).toBe(201);
    expect((await api(server.url, theirs, 'GET', '/local/v1/faults')).body).toEqual([]);
    // The other client clearing its (empty) rules leaves mine in place.
    expect((await api(server.url, theirs, 'DELETE', '/local/v1/faults')).status).toBe(204);
    expect((await api(server.url, mine, 'POST', '/law/api/v1/census', census)).status).toBe(503);
    expect((await api(server.url, mine, 'DELETE', '/local/v1/faults')).status).toBe(204);
    expect((await api(server.url, mine, 'POST', '/law/api/v1/census', census)).status).toBe(201);
  });

  it('uploads to a client\'s addresses are faulted by its rules, not by another\'s', async () => {
    const content = csvText('census', [censusRow(7)]);
    const grant = await grantFor(server.url, theirs, metadata(content, { fileName: 'theirs.csv' }));
    await api(server.url, mine, 'PUT', '/local/v1/faults', [{ pathPrefix: '/uploads/', errorRate: 1 }]);
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
    await api(server.url, mine, 'DELETE', '/local/v1/faults');
  });

  it('webhook URLs: http(s) on this machine only, without user or password', async () => {
    for (const [url, message] of [
      ['ftp://127.0.0.1/x', /http\(s\)/], ['file:///etc/passwd', /http\(s\)/], ['http://user:pw@127.0.0.1:9/x', /user name or password/],
      ['http://example.com/hook', /--allow-remote-webhooks/], ['http://10.0.0.8/hook', /--allow-remote-webhooks/],
    ] as const) {
      const res = await api(server.url, mine, 'PUT', '/local/v1/webhook', { url });
      expect(res.status, url).toBe(400);
      expect((res.body as { errors: string[] }).errors.join(' ')).toMatch(message);
    }
    for (const url of ['http://localhost:9/x', 'http://[::1]:9/x', 'https://127.0.0.2:9/x']) {
      expect((await api(server.url, mine, 'PUT', '/local/v1/webhook', { url })).status, url).toBe(200);
    }
  });

  it('redelivery is limited per delivery, and another client\'s delivery is not found', async () => {
    await api(server.url, mine, 'PUT', '/local/v1/webhook', { url: receiver.url });
    await importCensus(server.url, mine);
    const [failed] = await settledAttempts(server.url, mine, 1);
    expect((await api(server.url, theirs, 'POST', `/local/v1/deliveries/${failed!.id}/redeliver`)).status).toBe(404);
    expect((await api(server.url, mine, 'POST', `/local/v1/deliveries/${failed!.id}/redeliver`)).status).toBe(202);
    const again = await api(server.url, mine, 'POST', `/local/v1/deliveries/${failed!.id}/redeliver`);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((again.body as { errors: string[] }).errors[0]).toMatch(/try again in \d+ s/);
  });

  it('the request log masks personal data and gives upload rows to the grant\'s client', async () => {
    await api(server.url, mine, 'POST', '/law/api/v1/receipt',
      [{ lastName: 'Secretname', firstName: 'Hidden', ssn: '123-45-6789', employeeRegistration: 'E-1', paymentDate: '2026-03-31', amount: 10 }]);
    await api(server.url, mine, 'POST', '/law/api/v1/receipt', [{ lastName: 'Wrongtype', ssn: 987654321 }]);
    const content = csvText('census', [censusRow(9)]);
    const grant = await grantFor(server.url, theirs, metadata(content, { fileName: 'owned.csv' }));
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);

    const own = (await api(server.url, mine, 'GET', '/local/v1/requests?pathPrefix=/law/api/v1/receipt')).body as LogRow[];
    const text = JSON.stringify(own);
    for (const secret of ['Secretname', 'Hidden', '123-45-6789', 'Wrongtype', '987654321']) expect(text).not.toContain(secret);
    expect(own[0]?.requestBody).toContain('"ssn":"***"');
    const uploadsMine = (await api(server.url, mine, 'GET', '/local/v1/requests?pathPrefix=/uploads/')).body as LogRow[];
    expect(uploadsMine).toEqual([]);
    const uploadsTheirs = (await api(server.url, theirs, 'GET', '/local/v1/requests?pathPrefix=/uploads/')).body as LogRow[];
    expect(uploadsTheirs.map((r) => r.clientId)).toContain(OTHER.id);
  });

  it('logs an upload the client aborted, and a body that failed to parse', async () => {
    const content = csvText('census', Array.from({ length: 500 }, (_, i) => censusRow(100 + i)));
    const grant = await grantFor(server.url, theirs, metadata(content, { fileName: 'aborted.csv' }));
    await new Promise<void>((resolve) => {
      const req = httpRequest(grant.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/csv', 'content-length': String(content.length) } });
      req.on('error', () => resolve());
      req.write(content.slice(0, 1000), () => setTimeout(() => {
        req.destroy();
        resolve();
      }, 200));
    });
    await api(server.url, theirs, 'POST', '/law/api/v1/census', '[{"lastName": oops');
    const fileId = new URL(grant.uploadUrl).pathname.split('/').pop() as string;
    const rows = await eventually(async () => {
      const uploads = (await api(server.url, theirs, 'GET', `/local/v1/requests?pathPrefix=/uploads/${fileId}`)).body as LogRow[];
      const parses = (await api(server.url, theirs, 'GET', '/local/v1/requests?pathPrefix=/law/api/v1/census&status=400')).body as LogRow[];
      if (!uploads[0] || !parses[0]) throw new Error(`${uploads.length} ${parses.length}`);
      return { upload: uploads[0], parse: parses[0] };
    });
    expect(rows.parse.requestBody).toBe('<18 bytes of application/json>');
    expect(rows.upload.status).toBe(0);
    expect(rows.upload.path).toContain('signature=***');
  });

  it('masks pre-signed addresses in the server\'s own log lines', async () => {
    const content = csvText('census', [censusRow(11)]);
    const grant = await grantFor(server.url, mine, metadata(content, { fileName: 'logged.csv' }));
    server.ctx.logger.child('any-part').error(`could not handle ${grant.uploadUrl}`);
    const signature = new URL(grant.uploadUrl).searchParams.get('signature') as string;
    expect(lines.join('')).toContain('signature=***');
    expect(lines.join('')).not.toContain(signature);
  });
});

describe('--allow-remote-webhooks', () => {
  it('lets a client register a webhook on another host', async () => {
    const server = await startTestServer({ allowRemoteWebhooks: true });
    try {
      const token = await getToken(server.url);
      expect((await api(server.url, token, 'PUT', '/local/v1/webhook', { url: 'https://hooks.example.com/payroll' })).status).toBe(200);
      expect((await api(server.url, token, 'PUT', '/local/v1/webhook', { url: 'https://u:p@hooks.example.com/payroll' })).status).toBe(400);
    } finally {
      await server.stop();
    }
  });
});
