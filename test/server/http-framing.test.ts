/**
 * The request line and the headers that frame a request, sent as raw bytes: an HTTP version other than 1.1 and
 * 1.0 is a 505, more than one Host header a 400, a transfer coding other than chunked a 501. Each answer has the
 * error body and X-Trace-Id, is the only answer on its connection, and is in the request log; nothing is imported.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../shared';
import type { TestServer } from '../helpers/local-server';
import { api, getToken, loggedRows, startTestServer } from '../helpers/local-server';

/**
 * Sends raw bytes on a fresh connection without half-closing it (a half-closed connection is closed before an answer
 * that takes a turn); resolves with everything the server wrote until it closed the connection.
 */
function raw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

const statusLines = (response: string) => response.split('\r\n').filter((line) => /^HTTP\/\d\.\d \d{3} /.test(line));
const bodyOf = (response: string) => errorBodySchema.parse(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)));
const traceIdOf = (response: string) => /\r\nX-Trace-Id: ([0-9a-f]{32})\r\n/i.exec(response)?.[1];

const census = JSON.stringify([{ lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'TE-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }]);
const BOTH = /^a request may not carry both Content-Length and Transfer-Encoding \(the two could disagree on where the body ends\); send the body with one of the two$/;
const chunked = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;

describe('request line and framing', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
  });
  afterAll(() => server.stop());

  /** The one answer on the connection: its status, error messages and request-log row. */
  async function answered(bytes: string) {
    const response = await raw(server.url, bytes);
    expect(statusLines(response), response).toHaveLength(1);
    const traceId = traceIdOf(response);
    expect(traceId, response).toMatch(/^[0-9a-f]{32}$/);
    const [row] = await loggedRows(server.url, token, 'limit=100', (r) => r.traceId === traceId);
    const body = bodyOf(response);
    return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(response)?.[1]), body, row, response };
  }

  it.each([
    ['HTTP/2.0', 'GET /local/v1/health HTTP/2.0\r\nHost: x\r\n\r\n', '2.0', 'GET', '/local/v1/health'],
    ['HTTP/0.9', 'GET /local/v1/health HTTP/0.9\r\nHost: x\r\n\r\n', '0.9', 'GET', '/local/v1/health'],
    ['no version (HTTP/0.9)', 'GET /local/v1/health\r\n\r\n', '0.9', 'GET', '/local/v1/health'],
    ['HTTP/1.2', 'GET /local/v1/health HTTP/1.2\r\nHost: x\r\n\r\n', '1.2', 'GET', '/local/v1/health'],
    ['HTTP/3.0', 'POST /law/api/v1/census HTTP/3.0\r\nHost: x\r\n\r\n', '3.0', 'POST', '/law/api/v1/census'],
    ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', '2.0', 'PRI', '*'],
  ])('%s is a 505 naming the version and the one spoken, in the request log', async (_name, bytes, version, method, path) => {
    const { status, body, row, response } = await answered(bytes);
    expect(status).toBe(505);
    expect(body).toMatchObject({ title: 'HTTP Version Not Supported', statusCode: 505 });
    expect(body.errors).toEqual([`HTTP/${version} is not supported; this server speaks HTTP/1.1 (and HTTP/1.0): send the request as HTTP/1.1`]);
    expect(response).toMatch(/\r\nConnection: close\r\n/i);
    expect(row).toMatchObject({ method, path, status: 505, clientId: null });
  });

  it.each([
    ['HTTP/1', 'GET /local/v1/health HTTP/1\r\nHost: x\r\n\r\n'],
    ['HTTP/a.b', 'GET /local/v1/health HTTP/a.b\r\nHost: x\r\n\r\n'],
    ['HTTP/1.2x', 'GET /local/v1/health HTTP/1.2x\r\nHost: x\r\n\r\n'],
  ])('a malformed version (%s) stays a 400: not valid HTTP', async (_name, bytes) => {
    const { status, body } = await answered(bytes);
    expect(status).toBe(400);
    expect(body.errors[0]).toMatch(/not valid HTTP/);
  });

  it('HTTP/1.0 and HTTP/1.1 are answered as ever', async () => {
    expect(statusLines(await raw(server.url, 'GET /local/v1/health HTTP/1.0\r\n\r\n'))).toEqual(['HTTP/1.1 200 OK']);
    expect(statusLines(await raw(server.url, 'GET /local/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))).toEqual(['HTTP/1.1 200 OK']);
  });

  it.each([
    ['HTTP/1.1, the same host twice', 'HTTP/1.1', ['Host: x', 'Host: x'], 2],
    ['HTTP/1.1, two hosts', 'HTTP/1.1', ['Host: a.example', 'host: b.example'], 2],
    ['HTTP/1.1, three hosts', 'HTTP/1.1', ['Host: a', 'HOST: b', 'Host: c'], 3],
    ['HTTP/1.0, two hosts', 'HTTP/1.0', ['Host: a', 'Host: b'], 2],
  ])('more than one Host header (%s) is a 400 saying how many, in the request log', async (_name, version, hosts, count) => {
    const { status, body, row } = await answered(`GET /local/v1/health ${version}\r\n${hosts.join('\r\n')}\r\nConnection: close\r\n\r\n`);
    expect(status).toBe(400);
    expect(body.errors).toEqual([`the request has ${count} Host headers; send exactly one (RFC 9112 section 3.2)`]);
    expect(row).toMatchObject({ method: 'GET', path: '/local/v1/health', status: 400, clientId: null });
  });

  it.each([
    ['GET', '/local/v1/health', ['Transfer-Encoding: gzip, chunked'], chunked(''), 'gzip'],
    ['GET', '/local/v1/imports', ['Transfer-Encoding: GZIP , Chunked'], chunked(''), 'GZIP'],
    ['POST', '/law/api/v1/census', ['Transfer-Encoding: gzip, chunked'], chunked(census), 'gzip'],
    // Node joins the lines of a repeated header: read as one list, as RFC 9110 section 5.3 says.
    ['POST', '/law/api/v1/census', ['Transfer-Encoding: gzip', 'Transfer-Encoding: chunked'], chunked(census), 'gzip'],
    ['POST', '/law/api/v1/census', ['Transfer-Encoding: deflate, x-custom;level=1, chunked'], chunked(census), 'deflate, x-custom'],
  ])('%s %s with %j is a 501 naming the coding, and nothing is imported', async (method, path, lines, body, named) => {
    const before = await api(server.url, token, 'GET', '/local/v1/imports');
    const head = `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`;
    const answer = await answered(head + body);
    expect(answer.status).toBe(501);
    expect(answer.body).toMatchObject({ title: 'Not Implemented', statusCode: 501 });
    expect(answer.body.errors).toEqual([
      `Transfer-Encoding ${named} is not supported; send the body with Content-Length, or with Transfer-Encoding: chunked alone`,
    ]);
    expect(answer.row).toMatchObject({ method, path, status: 501 });
    expect((await api(server.url, token, 'GET', '/local/v1/imports')).body).toEqual(before.body);
  });

  it.each([
    ['gzip', /^Transfer-Encoding gzip does not end in chunked, so where the body ends is unknown/],
    ['identity', /^Transfer-Encoding identity does not end in chunked/],
    // Refused by the HTTP parser as the headers arrive.
    ['chunked, gzip', /^the Transfer-Encoding is not valid: it must end in chunked, given once/],
    ['chunked, chunked', /^the Transfer-Encoding is not valid: it must end in chunked, given once/],
  ])('Transfer-Encoding: %s is one 400 saying it must end in chunked, and the connection closes', async (coding, message) => {
    const { status, body, row, response } = await answered(
      `POST /law/api/v1/census HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: ${coding}\r\n\r\n${census}`);
    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatch(message);
    expect(response).toMatch(/\r\nConnection: close\r\n/i);
    expect(row).toMatchObject({ method: 'POST', path: '/law/api/v1/census', status: 400 });
  });

  it('an HTTP/1.0 request with Transfer-Encoding is one 400 (faulty framing, RFC 9112 section 6.1), the connection closes, and nothing is imported', async () => {
    const before = await api(server.url, token, 'GET', '/local/v1/imports');
    const { status, body, row, response } = await answered(
      `POST /law/api/v1/census HTTP/1.0\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n`
      + `Transfer-Encoding: chunked\r\n\r\n${chunked(census.replace('TE-1', 'TE-10'))}`);
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      'an HTTP/1.0 request cannot use Transfer-Encoding (HTTP/1.0 has no transfer codings, so where its body ends is unknown); send it as HTTP/1.1, or with Content-Length alone',
    ]);
    expect(response).toMatch(/\r\nConnection: close\r\n/i);
    expect(row).toMatchObject({ method: 'POST', path: '/law/api/v1/census', status: 400 });
    expect((await api(server.url, token, 'GET', '/local/v1/imports')).body).toEqual(before.body);
  });

  it.each([
    // The parser reports both orders under the code of the second header: the answer names the real fault either way.
    ['Content-Length after Transfer-Encoding', 'Transfer-Encoding: chunked\r\nContent-Length: 5', BOTH],
    ['Content-Length before Transfer-Encoding', 'Content-Length: 5\r\nTransfer-Encoding: chunked', BOTH],
    ['Content-Length before Transfer-Encoding: gzip, chunked', 'Content-Length: 5\r\nTransfer-Encoding: gzip, chunked', BOTH],
    ['a Content-Length that is no number', 'Content-Length: abc', /^the Content-Length is not valid: it must be a whole number of bytes, the size of the body$/],
    ['two Content-Lengths', 'Content-Length: 5\r\nContent-Length: 6', /^Content-Length is given more than once; give it once$/],
  ])('%s is one 400 that says what is wrong with the framing', async (_what, lines, message) => {
    const { status, body } = await answered(
      `POST /law/api/v1/census HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${lines}\r\n\r\n0\r\n\r\n`);
    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatch(message);
  });

  it('Transfer-Encoding: chunked alone is read as ever', async () => {
    const response = await raw(server.url,
      `POST /law/api/v1/census HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`
      + chunked(census.replace('TE-1', 'TE-ok')));
    expect(statusLines(response)).toEqual(['HTTP/1.1 201 Created']);
  });
});
