/**
 * Expect: 100-continue, as curl sends it with large bodies: the interim "100 Continue" comes only once the request
 * passed the checks that need no body, so a refused client never sends its body; other expectations are a 417.
 */
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorBodySchema } from '../../shared';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { grantFor, metadata } from '../helpers/file-handshake';
import type { TestServer } from '../helpers/local-server';
import { getToken, loggedRows, startTestServer } from '../helpers/local-server';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await getToken(server.url);
});
afterAll(() => server.stop());

type Conversation = {
  /** The next answer's status line, headers and (by Content-Length) body, once all of it arrived. */
  answer(): Promise<{ status: number; head: string; body: string }>;
  send(bytes: string | Buffer): void;
  closed: Promise<void>;
  socket: Socket;
};

/** A connection that sends `head` and then waits, so what the server answers before any body can be seen. */
function converse(head: string): Promise<Conversation> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    let wake = () => undefined as void;
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      resolve({
        socket,
        send: (bytes) => socket.write(bytes),
        closed,
        async answer() {
          for (;;) {
            const end = buffer.indexOf('\r\n\r\n');
            if (end !== -1) {
              const text = buffer.subarray(0, end).toString('latin1');
              const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? 0);
              if (buffer.length >= end + 4 + length) {
                const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
                buffer = buffer.subarray(end + 4 + length);
                return { status: Number(text.split(' ')[1]), head: text, body };
              }
            }
            if (socket.destroyed || socket.readableEnded) throw new Error(`the connection closed; left unread: ${buffer.toString('latin1')}`);
            await new Promise<void>((r) => (wake = r));
          }
        },
      });
    });
    const closed = new Promise<void>((r) => socket.on('close', () => {
      r();
      wake();
    }));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      wake();
    });
    socket.on('end', () => wake());
    socket.on('error', reject);
  });
}

const host = () => new URL(server.url).host;
const censusBody = JSON.stringify([{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E-100', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]);
const censusHead = (bearer: string, length: number) =>
  `POST /law/api/v1/census HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${bearer}\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;

const expectRefusal = async (talk: Conversation, status: number, message: RegExp) => {
  const answer = await talk.answer();
  expect(answer.status, answer.head).toBe(status);
  expect(answer.head).toMatch(/\r\nX-Trace-Id: [0-9a-f]{32}/i);
  expect(errorBodySchema.parse(JSON.parse(answer.body)).errors.join(' | ')).toMatch(message);
  // The body was never asked for: the server closes the connection rather than read bytes it did not want.
  await talk.closed;
};

it('a request that passes its checks hears 100 Continue, then its answer', async () => {
  const talk = await converse(censusHead(token, Buffer.byteLength(censusBody)));
  expect((await talk.answer()).status).toBe(100);
  talk.send(censusBody);
  expect((await talk.answer()).status).toBe(201);
  talk.socket.destroy();
});

it('a bad token is answered 401 before any body, with no 100 Continue', async () => {
  await expectRefusal(await converse(censusHead('not-a-token', 50_000_000)), 401, /token/);
});

it('the token endpoint answers a wrong client secret 401 before any body; the right one hears 100 Continue and gets its token', async () => {
  const tokenHead = (secret: string, length: number) =>
    `POST /oauth/v1/access-token HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Basic ${Buffer.from(`test-client:${secret}`).toString('base64')}\r\n`
    + `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;
  const form = 'grant_type=client_credentials';
  await expectRefusal(await converse(tokenHead('wrong-secret', form.length)), 401, /unknown client or wrong client secret/);

  const talk = await converse(tokenHead('test-secret-value-123', form.length));
  expect((await talk.answer()).status).toBe(100);
  talk.send(form);
  const answer = await talk.answer();
  expect(answer.status, answer.body).toBe(200);
  expect(JSON.parse(answer.body)).toMatchObject({ token_type: 'Bearer' });
  talk.socket.destroy();
});

it('a declared body over the limit is answered 413 before any body, with no 100 Continue', async () => {
  await expectRefusal(await converse(censusHead(token, 6 * 1024 * 1024)), 413, /at most 5 MB/);
});

it('an upload to a forged address is answered 403 before any body; to its real address it hears 100 Continue and is stored', async () => {
  const content = csvText('census', [censusRow(1)]);
  const grant = await grantFor(server.url, token, metadata(content));
  const target = new URL(grant.uploadUrl);
  const uploadHead = (path: string, length: number) =>
    `PUT ${path} HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: text/csv\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;
  const forged = `${target.pathname}${target.search.replace(/signature=[0-9a-f]+/, `signature=${'0'.repeat(64)}`)}`;
  await expectRefusal(await converse(uploadHead(forged, 60_000_000)), 403, /signature is not valid/);

  const talk = await converse(uploadHead(`${target.pathname}${target.search}`, Buffer.byteLength(content)));
  expect((await talk.answer()).status).toBe(100);
  talk.send(content);
  const stored = await talk.answer();
  expect(stored.status, stored.body).toBe(200);
  talk.socket.destroy();
});

it('an unknown route or method is answered 404 or 405 before any body, with no 100 Continue', async () => {
  const head = (method: string, path: string) =>
    `${method} ${path} HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\nExpect: 100-continue\r\n\r\n`;
  await expectRefusal(await converse(head('POST', '/law/api/v1/nothing')), 404, /^no such endpoint: POST \/law\/api\/v1\/nothing$/);
  await expectRefusal(await converse(head('PUT', '/law/api/v1/census')), 405, /^PUT is not allowed on \/law\/api\/v1\/census; use POST$/);
});

it('another expectation is a 417 with the error body and X-Trace-Id, in the request log', async () => {
  const talk = await converse(`GET /local/v1/requests HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${token}\r\nExpect: 200-ok\r\n\r\n`);
  const answer = await talk.answer();
  expect(answer.status, answer.head).toBe(417);
  expect(answer.head).toMatch(/\r\nX-Trace-Id: [0-9a-f]{32}/i);
  expect(errorBodySchema.parse(JSON.parse(answer.body)).errors[0]).toMatch(/Expect: 200-ok cannot be met.*100-continue/);
  talk.socket.destroy();
  const rows = await loggedRows(server.url, token, 'limit=20', (row) => row.status === 417);
  expect(rows[0]?.path).toBe('/local/v1/requests');
});
