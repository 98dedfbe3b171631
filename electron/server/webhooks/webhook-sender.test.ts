import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { newWebhookSecret } from './webhook-secret';
import { MAX_ANSWER_BYTES, sendWebhook, signWebhook, webhookHeaders } from './webhook-sender';

const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

describe('webhook signing', () => {
  it('signs exactly as the Standard Webhooks reference library', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ id: 'msg_1', type: 'import.processed', note: 'naïve ✓' });
    const at = new Date('2026-03-01T12:00:00Z');
    expect(signWebhook(secret, 'msg_1', at.getTime() / 1000, body)).toBe(new Webhook(secret).sign('msg_1', at, body));
  });

  it('makes headers the reference library verifies', () => {
    const secret = newWebhookSecret();
    const body = '{"a":1}';
    const headers = webhookHeaders(secret, 'msg_abc', body, new Date());
    expect(new Webhook(secret).verify(body, headers)).toEqual({ a: 1 });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(headers['content-type']).toBe('application/json');
  });
});

describe('sendWebhook', () => {
  // No test here is about the time-out: long enough that a loaded machine never turns an answer into a time-out.
  const send = (url: string, signal = new AbortController().signal, timeoutMs = 20_000, allowRemote = false) =>
    sendWebhook({ url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs, signal, allowRemote });

  it('stops reading a long answer at the bound instead of waiting for its end', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(MAX_ANSWER_BYTES + 1024, 'x')); // and never ends
    });
    expect(await send(url, undefined, 20_000)).toMatchObject({ kind: 'answered', httpStatus: 200 });
  });

  it('gives no status when the answer is cut off half way', async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial', () => req.socket.destroy());
    });
    expect(await send(url)).toMatchObject({ kind: 'error', httpStatus: null });
  });

  it('ends at once when aborted, with no status', async () => {
    const url = await serve(() => undefined);
    const abort = new AbortController();
    const pending = send(url, abort.signal, 20_000);
    setTimeout(() => abort.abort(), 50);
    expect(await pending).toMatchObject({ kind: 'aborted', httpStatus: null });
  });

  it('refuses a URL that is not http(s)', async () => {
    expect(await send('ftp://127.0.0.1/hook')).toMatchObject({ kind: 'refused', httpStatus: null, durationMs: 0 });
    expect(await send('not a url')).toMatchObject({ kind: 'refused', httpStatus: null });
  });

  it('refuses a host other than this machine without connecting, unless remote webhooks are allowed', async () => {
    expect(await send('http://192.0.2.1:9/hook')).toEqual({
      kind: 'refused', httpStatus: null, durationMs: 0,
      detail: 'the webhook URL http://192.0.2.1:9/hook names a host other than this machine (192.0.2.1); start the server with --allow-remote-webhooks to send there',
    });
    // 0.0.0.0 is not loopback by the rule, yet a connection to it reaches this machine's 127.0.0.1 (Linux, macOS).
    let received = 0;
    const url = await serve((_req, res) => {
      received += 1;
      res.end('ok');
    });
    const viaAny = url.replace('127.0.0.1', '0.0.0.0');
    expect(await send(viaAny)).toMatchObject({ kind: 'refused', detail: expect.stringMatching(/--allow-remote-webhooks/) as unknown });
    expect(received).toBe(0);
    if (process.platform !== 'win32') {
      expect(await send(viaAny, undefined, 20_000, true)).toMatchObject({ kind: 'answered', httpStatus: 200 });
      expect(received).toBe(1);
    }
  });

  it('refuses, before connecting, a stored URL the registration rules refuse now', async () => {
    let received = 0;
    const url = await serve((_req, res) => {
      received += 1;
      res.end('ok');
    });
    for (const bad of [url.replace('/hook', '\\@evil.example/hook'), `${url}#@evil.example`, url.replace('//', '//:@')]) {
      expect(await send(bad), bad).toMatchObject({ kind: 'refused', httpStatus: null, durationMs: 0 });
    }
    expect(received).toBe(0);
    expect(await send(url.replace('127.0.0.1', '127.1'))).toMatchObject({ kind: 'answered', httpStatus: 200 });
  });
});
