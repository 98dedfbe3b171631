import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIMITS } from '../../../shared';
import { censusChunks, censusRow, csvText } from '../../../test/helpers/csv-fixtures';
import { grantFor, importOfUpload, metadata, putFile, rawPut } from '../../../test/helpers/file-handshake';
import type { TestServer } from '../../../test/helpers/local-server';
import { eventually, getToken, loggedRows, startTestServer } from '../../../test/helpers/local-server';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await getToken(server.url);
});
afterAll(async () => {
  await server.stop();
});

const partials = async () => (await readdir(server.ctx.uploadsDir)).filter((n) => n.endsWith('.part'));
const noPartials = async () => ((await partials()).length === 0 ? true : undefined);

it('answers 413 at once to a declared Content-Length over 100 MB, without reading the body', async () => {
  const content = csvText('census', [censusRow(1)]);
  const grant = await grantFor(server.url, token, metadata(content));
  // Only a few bytes are sent: the answer cannot wait for the body.
  const answer = await rawPut(grant.uploadUrl, { 'content-type': 'text/csv', 'content-length': LIMITS.fileBytes + 1 }, [Buffer.from(content)]);
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 413, title: 'Payload Too Large' });
  expect(importOfUpload(server, grant.uploadUrl)?.status).toBe('AWAITING_UPLOAD');
});

it('stops a chunked body at 100 MB + 1 byte with 413, keeps nothing, and the address stays usable', async () => {
  const content = csvText('census', [censusRow(2)]);
  const grant = await grantFor(server.url, token, metadata(content));
  const answer = await rawPut(grant.uploadUrl, { 'content-type': 'text/csv', 'transfer-encoding': 'chunked' }, censusChunks(LIMITS.fileBytes + 64 * 1024));
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 413 });
  await eventually(noPartials);
  expect(importOfUpload(server, grant.uploadUrl)?.status).toBe('AWAITING_UPLOAD');
  expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
});

it('keeps nothing of an upload the client abandons mid-body', async () => {
  const content = csvText('census', [censusRow(3)]);
  const grant = await grantFor(server.url, token, metadata(content));
  const req = httpRequest(grant.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/csv', 'content-length': 10_000_000 } });
  req.on('error', () => undefined);
  await new Promise<void>((resolve) => req.write(Buffer.alloc(256 * 1024, 0x61), () => resolve()));
  // The partial file exists while the body streams in...
  await eventually(async () => ((await partials()).length > 0 ? true : undefined));
  req.destroy();
  // ...and is gone once the client is.
  await eventually(noPartials);
  expect(importOfUpload(server, grant.uploadUrl)?.status).toBe('AWAITING_UPLOAD');
  expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
});

it('answers an upload with a bad signature at once, even while a large body is still coming', async () => {
  const content = csvText('census', [censusRow(4)]);
  const grant = await grantFor(server.url, token, metadata(content));
  const forged = grant.uploadUrl.replace(/signature=[0-9a-f]+/, `signature=${'0'.repeat(64)}`);
  const answer = await rawPut(forged, { 'content-type': 'text/csv', 'transfer-encoding': 'chunked' }, censusChunks(2 * LIMITS.fileBytes));
  expect(answer.status).toBe(403);
  expect(await partials()).toEqual([]);
});

it('answers an upload that goes silent mid-body with a readable 408, keeps nothing, and the address stays usable', async () => {
  const quick = await startTestServer({ bodyStallMs: 300 });
  try {
    const quickToken = await getToken(quick.url);
    const content = csvText('census', [censusRow(5)]);
    const grant = await grantFor(quick.url, quickToken, metadata(content));
    // A tenth of the declared body arrives, then nothing more, as behind a stalled proxy.
    const answer = await rawPut(grant.uploadUrl, { 'content-type': 'text/csv', 'content-length': content.length * 10 }, [Buffer.from(content)]);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 408, errors: [expect.stringMatching(/sent no byte for 0.3 s.*nothing was kept/)] });
    expect((await readdir(quick.ctx.uploadsDir)).filter((n) => n.endsWith('.part'))).toEqual([]);
    const logged = await loggedRows(quick.url, quickToken, 'limit=10', (row) => row.path.startsWith('/uploads/'));
    expect(logged.map((row) => row.status)).toEqual([408]);
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
  } finally {
    await quick.stop();
  }
});
