/**
 * A request body that stops arriving gets a readable 408, its connection closed, and a request-log row; a body
 * that keeps coming, however slowly, is waited for. Raw sockets against a real server whose stall time is shortened.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorBodySchema } from '../../shared';
import type { TestServer } from '../helpers/local-server';
import { getToken, loggedRows, startTestServer } from '../helpers/local-server';

const STALL_MS = 400;
let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ bodyStallMs: STALL_MS });
  token = await getToken(server.url);
});
afterAll(() => server.stop());

const census = JSON.stringify([{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E-STALL', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]);

/** Sends `head`, then each part of the body after its delay; resolves with all the server wrote and when it closed. */
function send(head: string, parts: { after: number; bytes: string }[]): Promise<{ text: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(server.url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      let at = 0;
      for (const part of parts) {
        at += part.after;
        setTimeout(() => {
          if (!socket.destroyed) socket.write(part.bytes);
        }, at);
      }
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), closedAfterMs: Date.now() - started }));
  });
}

const head = (path: string, type: string, length: number, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n${extra}Connection: close\r\n\r\n`;

it('a JSON body that stops half-way is answered 408 with the error body, the connection closed, and logged', async () => {
  const { text } = await send(head('/law/api/v1/census', 'application/json', census.length, `Authorization: Bearer ${token}\r\n`),
    [{ after: 0, bytes: census.slice(0, 10) }]);
  const [status, ...rest] = text.split('\r\n');
  expect(status).toBe('HTTP/1.1 408 Request Timeout');
  const headers = rest.slice(0, rest.indexOf('')).join('\n').toLowerCase();
  expect(headers).toMatch(/^connection: close$/m);
  const traceId = /^x-trace-id: (\S+)$/m.exec(headers)?.[1];
  expect(traceId).toBeTruthy();
  const body = errorBodySchema.parse(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)));
  expect(body.errors).toEqual([`the request body sent no byte for ${STALL_MS / 1000} s and was cut off; nothing was kept: send the whole body again`]);
  const [row] = await loggedRows(server.url, token, 'status=408', (r) => r.traceId === traceId);
  expect(row).toMatchObject({ method: 'POST', path: '/law/api/v1/census', status: 408 });
  // Nothing was imported.
  const imports = await fetch(`${server.url}/local/v1/imports`, { headers: { authorization: `Bearer ${token}` } });
  expect(await imports.json()).toEqual([]);
});

it('the token endpoint\'s form body gets the same 408', async () => {
  const form = 'grant_type=client_credentials';
  const basic = Buffer.from('test-client:test-secret-value-123').toString('base64');
  const { text } = await send(head('/oauth/v1/access-token', 'application/x-www-form-urlencoded', form.length, `Authorization: Basic ${basic}\r\n`),
    [{ after: 0, bytes: form.slice(0, 5) }]);
  expect(text.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  // Still the token endpoint's answer: OAuth's error field is there.
  expect(errorBodySchema.parse(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)))).toMatchObject({ statusCode: 408, error: 'invalid_request' });
});

it('a body that keeps coming, more slowly than the stall time in all, is read and answered', async () => {
  const parts = Array.from({ length: 6 }, (_, i) => ({ after: STALL_MS / 2, bytes: census.slice((i * census.length) / 6, ((i + 1) * census.length) / 6) }));
  const { text, closedAfterMs } = await send(head('/law/api/v1/census', 'application/json', census.length, `Authorization: Bearer ${token}\r\n`), parts);
  expect(closedAfterMs).toBeGreaterThan(STALL_MS * 2);
  expect(text.split('\r\n')[0]).toBe('HTTP/1.1 201 Created');
});

it('a body answered 413 before it was read, on a connection kept open, is not timed out later (that error had no listener and ended the process)', async () => {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.prependListener('uncaughtException', onUncaught);
  try {
    const answer = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    // Declares a body over the 5 MB limit and sends none of it; no Connection: close.
    socket.write(`POST /law/api/v1/census HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nContent-Type: application/json\r\n`
      + `Content-Length: ${6 * 1024 * 1024}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    expect((await answer).split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    // Three stall times with the connection open and silent: an 'error' event nobody listens for would be thrown here.
    await new Promise((r) => setTimeout(r, STALL_MS * 3));
    expect(uncaught).toEqual([]);
    expect((await fetch(`${server.url}/local/v1/health`)).status).toBe(200);
  } finally {
    process.removeListener('uncaughtException', onUncaught);
    socket.destroy();
  }
});
