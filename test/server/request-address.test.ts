/**
 * The absolute URLs the server answers with (a grant's uploadUrl, the OpenAPI document's server) name the address
 * the client used, when that names this machine, not the address the server is bound to: a client of
 * https://localhost:P with a certificate for localhost alone must be able to upload where it is sent.
 */
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadGrant } from '../../shared';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { metadata, putFile } from '../helpers/file-handshake';
import type { TestServer } from '../helpers/local-server';
import { TEST_CLIENT, api, getToken, startTestServer, tempDir } from '../helpers/local-server';

type Answer = { status: number; body: unknown; error?: string };

/** One request over node:http(s), so the Host header and the trusted certificate are the test's to choose. */
function call(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; ca?: string }): Promise<Answer> {
  return new Promise((resolve) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = send(url, { method: options.method ?? 'GET', headers: options.headers ?? {}, ...(options.ca ? { ca: options.ca } : {}) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    // A refused TLS check is an answer too: the test says which it expected.
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, body: undefined, error: error.code ?? error.message }));
    req.end(options.body);
  });
}

const basic = `Basic ${Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')}`;
let serial = 0;
const uniqueCensus = () => csvText('census', [censusRow(9000 + ++serial)]);

describe('addresses in answers over plain HTTP', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
  });
  afterAll(() => server.stop());

  it('sends a client that talks to localhost to localhost, and uploads there', async () => {
    const base = `http://localhost:${server.port}`;
    const content = uniqueCensus();
    const granted = await api(base, token, 'POST', '/law/api/v1/payroll-submissions', [metadata(content)]);
    expect(granted.status).toBe(201);
    const { uploadUrl } = (granted.body as UploadGrant[])[0] as UploadGrant;
    expect(uploadUrl).toMatch(new RegExp(`^${base}/uploads/[0-9a-f-]{36}\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    expect((await putFile(uploadUrl, content)).status).toBe(200);
    expect(((await api(base, undefined, 'GET', '/openapi.json')).body as { servers: unknown }).servers).toEqual([{ url: base }]);
  });

  it('takes every spelling of this machine in Host, written as the URL standard writes it, and the bind address for any other', async () => {
    const port = server.port;
    const cases = [
      [`127.1:${port}`, `http://127.0.0.1:${port}`], [`LocalHost:${port}`, `http://localhost:${port}`], [`[::1]:${port}`, `http://[::1]:${port}`],
      // Another name, or a host with something after it, never makes a URL that leads off this machine.
      [`payroll.example:${port}`, server.url], [`127.0.0.1:${port}@evil.example`, server.url], [`localhost:0`, server.url],
    ] as const;
    for (const [host, expected] of cases) {
      const content = uniqueCensus();
      const granted = await call(`${server.url}/law/api/v1/payroll-submissions`, {
        method: 'POST', headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify([metadata(content)]),
      });
      expect(granted.status, host).toBe(201);
      expect(((granted.body as UploadGrant[])[0] as UploadGrant).uploadUrl.startsWith(`${expected}/uploads/`), host).toBe(true);
      const document = await call(`${server.url}/openapi.json`, { headers: { host } });
      expect((document.body as { servers: unknown }).servers, host).toEqual([{ url: expected }]);
    }
  });
});

describe('addresses in answers over HTTPS with a certificate for localhost alone', () => {
  let dir: string;
  let server: TestServer;
  let ca: string;
  beforeAll(async () => {
    dir = await tempDir();
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    // No IP:127.0.0.1 in the certificate: a client that checks it reaches the server as localhost only.
    await promisify(execFile)('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', key, '-out', cert,
    ]);
    ca = await readFile(cert, 'utf8');
    server = await startTestServer({ tls: { cert, key } });
  });
  afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('grants an upload address that the client\'s TLS check accepts, and the upload arrives', async () => {
    const base = `https://localhost:${server.port}`;
    const issued = await call(`${base}/oauth/v1/access-token`, {
      method: 'POST', ca, headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials',
    });
    expect(issued.status).toBe(200);
    const token = (issued.body as { access_token: string }).access_token;
    const content = uniqueCensus();
    const granted = await call(`${base}/law/api/v1/payroll-submissions`, {
      method: 'POST', ca, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify([metadata(content)]),
    });
    expect(granted.status).toBe(201);
    const { uploadUrl } = (granted.body as UploadGrant[])[0] as UploadGrant;
    const uploaded = await call(uploadUrl, { method: 'PUT', ca, headers: { 'content-type': 'text/csv' }, body: content });
    expect(uploaded.error).toBeUndefined();
    expect(uploaded.status).toBe(200);
    expect(uploadUrl.startsWith(`${base}/uploads/`)).toBe(true);
    expect(((await call(`${base}/openapi.json`, { ca })).body as { servers: unknown }).servers).toEqual([{ url: base }]);
  });
});
