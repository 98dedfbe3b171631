import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, getToken, startTestServer } from '../../../test/helpers/local-server';
import { parseServerFlags } from '../../cli/server-flags';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await getToken(server.url);
});

afterAll(() => server.stop());

const put = (url: string) => api(server.url, token, 'PUT', '/local/v1/webhook', { url, secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}` });

/** URLs every way of registering refuses, with what the answer says. */
const REFUSED: [string, RegExp][] = [
  ['http://127.0.0.1\\@evil.com/', /backslash/],
  ['http://127.0.0.1#@evil.com/', /fragment/],
  ['http://:@127.0.0.1/', /user name or password/],
  ['http://127.0.0.1:0/hook', /port 0/],
  // Looks like this machine, but the trailing dot sends the name to DNS.
  ['http://localhost.:9/hook', /not localhost\.; "localhost\." with a trailing dot is looked up through DNS, which may lead off this machine: write localhost or 127\.0\.0\.1$/],
];

describe('PUT /local/v1/webhook', () => {
  it.each([...REFUSED, ['http:///127.0.0.1/hook', /scheme:\/\/host/]] as [string, RegExp][])(
    'refuses %s and keeps the earlier registration', async (url, message) => {
    expect((await put('http://127.0.0.1:9/kept')).status).toBe(200);
    const res = await put(url);
    expect(res.status, url).toBe(400);
    expect((res.body as { errors: string[] }).errors.join(' ')).toMatch(message);
    expect((await api(server.url, token, 'GET', '/local/v1/webhook')).body).toEqual({ url: 'http://127.0.0.1:9/kept', secretSet: true });
  });

  it('stores and echoes the normalised URL, the one it sends to', async () => {
    for (const [url, href] of [
      ['HTTP://LOCALHOST:80/hook', 'http://localhost/hook'],
      ['http://127.1:9/a/../hook', 'http://127.0.0.1:9/hook'],
      ['http://[0:0::1]:9', 'http://[::1]:9/'],
    ] as const) {
      const res = await put(url);
      expect(res.status, url).toBe(200);
      expect(res.body, url).toEqual({ url: href, secretSet: true });
      expect((await api(server.url, token, 'GET', '/local/v1/webhook')).body, url).toEqual({ url: href, secretSet: true });
    }
  });
});

describe('--webhook-url', () => {
  it.each([...REFUSED, ['http://192.0.2.1:9/hook', /--allow-remote-webhooks/]] as [string, RegExp][])(
    'refuses %s by the same check as PUT /local/v1/webhook', (url, message) => {
    expect(() => parseServerFlags(['--data-dir', '/nonexistent', '--webhook-url', url], {})).toThrow(message);
  });

  it('keeps the normalised URL, as PUT /local/v1/webhook does', () => {
    expect(parseServerFlags(['--data-dir', '/nonexistent', '--webhook-url', 'HTTP://LOCALHOST:80/a/../hook'], {}).webhook)
      .toMatchObject({ url: 'http://localhost/hook' });
  });
});
