import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, SCOPES } from '../../../shared';
import type { UploadGrant } from '../../../shared';
import { censusRow, csvText, md5 } from '../../../test/helpers/csv-fixtures';
import {
  fileIdOf, finishedImport, grantFor, importOfUpload, metadata, postSubmissions, putFile,
} from '../../../test/helpers/file-handshake';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, eventually, getToken, startTestServer } from '../../../test/helpers/local-server';
import { getImport } from '../db/imports-repo';

let server: TestServer;
let token: string;
let serial = 0;
/** A census file no other test uses (so checksums never collide between tests). */
const uniqueCensus = () => csvText('census', [censusRow(++serial), censusRow(++serial)]);

beforeAll(async () => {
  server = await startTestServer({
    clients: [
      { id: 'test-client', secret: 'test-secret-value-123', scopes: [...SCOPES] },
      { id: 'census-only', secret: 'census-only-secret-1', scopes: ['census:write'] },
    ],
  });
  token = await getToken(server.url);
});
afterAll(async () => {
  await server.stop();
});

describe('POST /law/api/v1/payroll-submissions', () => {
  it('grants signed, time-limited addresses in request order, each with an import awaiting its file', async () => {
    const census = uniqueCensus();
    const receipt = uniqueCensus();
    const before = Date.now();
    const res = await postSubmissions(server.url, token, [
      metadata(census, { fileName: 'a.csv' }),
      metadata(receipt, { fileType: '2', fileName: 'B.CSV', checksum: md5(receipt).toUpperCase() }),
    ]);
    expect(res.status).toBe(201);
    const grants = res.body as UploadGrant[];
    expect(grants.map((g) => [g.fileName, g.fileType])).toEqual([['a.csv', 'Census'], ['B.CSV', 'Receipt']]);
    for (const grant of grants) {
      expect(grant.uploadUrl).toMatch(new RegExp(`^${server.url}/uploads/[0-9a-f-]{36}\\?expires=\\d+&signature=[0-9a-f]{64}$`));
      const expires = Number(new URL(grant.uploadUrl).searchParams.get('expires'));
      expect(grant.expiration).toBe(new Date(expires * 1000).toISOString().replace('.000Z', 'Z'));
      expect(expires * 1000).toBeGreaterThanOrEqual(before + 900_000);
      expect(expires * 1000).toBeLessThanOrEqual(Date.now() + 901_000);
      expect(importOfUpload(server, grant.uploadUrl)).toMatchObject({ status: 'AWAITING_UPLOAD', source: 'file', file_name: grant.fileName });
    }
    expect(importOfUpload(server, grants[1]?.uploadUrl ?? '')?.kind).toBe('receipt');
  });

  it.each([
    ['application/json-patch+json'],
    ['application/vnd.payroll+json; charset=utf-8'],
    ['application/json; charset=utf-8'],
  ])('accepts the content type %s', async (type) => {
    const res = await postSubmissions(server.url, token, [metadata(uniqueCensus())], type);
    expect(res.status).toBe(201);
  });

  it('refuses other content types with 415', async () => {
    const res = await postSubmissions(server.url, token, JSON.stringify([metadata(uniqueCensus())]), 'text/plain');
    expect(res.status).toBe(415);
  });

  const good = metadata('x');
  it.each([
    ['a file type that is not a code', [{ ...good, fileType: '3' }], '[0].fileType: must be one of the file type codes "1" (Census), "2" (Receipt)'],
    ['a numeric file type', [{ ...good, fileType: 1 }], '[0].fileType: '],
    ['an impossible reference date', [good, { ...good, referenceDate: '2026-02-30T00:00:00Z' }], '[1].referenceDate: must be a real date written YYYY-MM-DDT00:00:00Z'],
    ['a reference date with a time', [{ ...good, referenceDate: '2026-01-31T10:00:00Z' }], '[0].referenceDate: must be a real date'],
    ['a malformed checksum', [good, good, { ...good, checksum: 'abc' }], '[2].checksum: must be a valid MD5 hexadecimal string (32 hex digits)'],
    ['a name without .csv', [{ ...good, fileName: 'census.txt' }], '[0].fileName: must end in .csv'],
    ['a name with a path', [{ ...good, fileName: 'dir/census.csv' }], '[0].fileName: must be a plain file name without path separators or ..'],
    ['a name with ..', [{ ...good, fileName: '..census.csv' }], '[0].fileName: must be a plain file name without path separators or ..'],
    ['a name over 255 characters', [{ ...good, fileName: `${'a'.repeat(252)}.csv` }], '[0].fileName: must be at most 255 characters'],
    ['a missing field', [{ fileType: '1', referenceDate: good.referenceDate, checksum: good.checksum }], '[0].fileName: is required'],
    ['an unknown field', [{ ...good, filename: 'x.csv' }], '[0]: unknown field(s): filename'],
    ['an empty array', [], 'the array must hold at least one file'],
    ['more than 100 items', Array.from({ length: 101 }, () => good), 'at most 100 files per request'],
    ['an object instead of an array', good, 'the body must be a JSON array of file metadata'],
  ])('answers 400 for %s, naming the item and field', async (_name, body, message) => {
    const res = await postSubmissions(server.url, token, body);
    expect(res.status).toBe(400);
    const errors = (res.body as { errors: string[] }).errors;
    expect(errors.some((e) => e.startsWith(message))).toBe(true);
  });

  it('answers 413 to a body over the submissions limit', async () => {
    const res = await postSubmissions(server.url, token, `[${' '.repeat(LIMITS.submissionBodyBytes)}]`);
    expect(res.status).toBe(413);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await postSubmissions(server.url, token, '[{"fileType":');
    expect(res.status).toBe(400);
  });

  it('refuses two items of one request with the same checksum, in any case (422)', async () => {
    const content = uniqueCensus();
    const res = await postSubmissions(server.url, token, [
      metadata(content, { fileName: 'first.csv' }),
      metadata(content, { fileName: 'second.csv', checksum: md5(content).toUpperCase() }),
    ]);
    expect(res.status).toBe(422);
    expect((res.body as { errors: string[] }).errors).toEqual([
      `[1].checksum: ${md5(content).toUpperCase()} repeats the checksum of [0] (first.csv); send each file once`,
    ]);
  });

  it('refuses a checksum of a file already uploaded (422), naming the item and the earlier file', async () => {
    const content = uniqueCensus();
    const grant = await grantFor(server.url, token, metadata(content, { fileName: 'january.csv' }));
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
    const res = await postSubmissions(server.url, token, [metadata(uniqueCensus()), metadata(content, { fileName: 'again.csv' })]);
    expect(res.status).toBe(422);
    const errors = (res.body as { errors: string[] }).errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^\[1\]\.checksum: the file january\.csv with this checksum was already uploaded at /);
  });

  it('re-issues a grant for a checksum whose address was never used: the old address stops working', async () => {
    const content = uniqueCensus();
    const first = await grantFor(server.url, token, metadata(content, { fileName: 'try-1.csv' }));
    const oldImport = importOfUpload(server, first.uploadUrl);
    const second = await grantFor(server.url, token, metadata(content, { fileName: 'try-2.csv' }));
    const refused = await putFile(first.uploadUrl, content);
    expect(refused.status).toBe(403);
    expect(refused.body.errors?.[0]).toMatch(/replaced by a newer grant/);
    // The never-used import is gone, so listings show only the grant that can still be used.
    expect(getImport(server.ctx.db, oldImport?.id ?? '')).toBeUndefined();
    expect((await putFile(second.uploadUrl, content)).status).toBe(200);
    expect(await finishedImport(server, second.uploadUrl)).toMatchObject({ status: 'PROCESSED', file_name: 'try-2.csv' });
  });

  it('answers 403 "replaced" to an upload whose address a newer grant replaced while its body arrived', async () => {
    const content = uniqueCensus();
    const first = await grantFor(server.url, token, metadata(content, { fileName: 'slow.csv' }));
    const slow = request(first.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/csv', 'content-length': Buffer.byteLength(content) } });
    const answer = new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      slow.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      slow.on('error', reject);
    });
    slow.write(content.slice(0, 10));
    // The server has the request (its address is being received) before the new grant is asked for.
    await eventually(() => (server.ctx.receiving.has(fileIdOf(first.uploadUrl)) ? true : undefined));
    const second = await grantFor(server.url, token, metadata(content, { fileName: 'fast.csv' }));
    expect((await putFile(second.uploadUrl, content)).status).toBe(200);
    slow.end(content.slice(10));
    const late = await answer;
    expect(late.status).toBe(403);
    expect((JSON.parse(late.body) as { errors: string[] }).errors[0]).toMatch(/replaced by a newer grant/);
    expect(await finishedImport(server, second.uploadUrl)).toMatchObject({ status: 'PROCESSED', file_name: 'fast.csv' });
  });

  it('answers 401 without a token and 403 for a client without submissions:write', async () => {
    const body = [metadata(uniqueCensus())];
    expect((await api(server.url, undefined, 'POST', '/law/api/v1/payroll-submissions', body)).status).toBe(401);
    const limited = await getToken(server.url, { id: 'census-only', secret: 'census-only-secret-1' });
    const res = await postSubmissions(server.url, limited, body);
    expect(res.status).toBe(403);
    expect((res.body as { errors: string[] }).errors[0]).toMatch(/submissions:write/);
  });
});

describe('PUT /uploads/:fileId', () => {
  it('stores the file, answers 200 with the MD5 as ETag, and processes it', async () => {
    const content = uniqueCensus();
    const grant = await grantFor(server.url, token, metadata(content));
    const put = await putFile(grant.uploadUrl, content, 'text/csv; charset=utf-8');
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe(`"${md5(content)}"`);
    const row = await finishedImport(server, grant.uploadUrl);
    expect(row).toMatchObject({ status: 'PROCESSED', kind: 'census', source: 'file', records: 2, accepted: 2, rejected: 0 });
    expect(put.body.importId).toBe(row.id);
  });

  it('answers 409 to a second upload to a used address', async () => {
    const content = uniqueCensus();
    const grant = await grantFor(server.url, token, metadata(content));
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
    const again = await putFile(grant.uploadUrl, content);
    expect(again.status).toBe(409);
    expect(again.body.errors?.[0]).toMatch(/already uploaded/);
  });

  it('refuses a body whose MD5 is not the declared checksum (400), keeps nothing, and the address stays usable', async () => {
    const content = uniqueCensus();
    const grant = await grantFor(server.url, token, metadata(content));
    const wrong = await putFile(grant.uploadUrl, `${content}extra\n`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.[0]).toMatch(/^the MD5 of the uploaded body is [0-9a-f]{32}, not the declared checksum/);
    expect(importOfUpload(server, grant.uploadUrl)?.status).toBe('AWAITING_UPLOAD');
    expect((await readdir(server.ctx.uploadsDir)).filter((n) => n.startsWith(fileIdOf(grant.uploadUrl)))).toEqual([]);
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
  });

  it('refuses a missing, wrong or tampered signature with 403', async () => {
    const content = uniqueCensus();
    const grant = await grantFor(server.url, token, metadata(content));
    const other = await grantFor(server.url, token, metadata(uniqueCensus()));
    const url = new URL(grant.uploadUrl);
    const variants = {
      noQuery: `${url.origin}${url.pathname}`,
      noSignature: `${url.origin}${url.pathname}?expires=${url.searchParams.get('expires')}`,
      noExpires: `${url.origin}${url.pathname}?signature=${url.searchParams.get('signature')}`,
      badExpires: grant.uploadUrl.replace(/expires=\d+/, 'expires=soon'),
      laterExpiry: grant.uploadUrl.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`),
      flippedSignature: grant.uploadUrl.replace(/signature=(.)/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`),
      otherPath: grant.uploadUrl.replace(fileIdOf(grant.uploadUrl), fileIdOf(other.uploadUrl)),
      unknownFile: grant.uploadUrl.replace(fileIdOf(grant.uploadUrl), '00000000-0000-4000-8000-000000000000'),
    };
    for (const [name, address] of Object.entries(variants)) {
      const res = await putFile(address, content);
      expect([name, res.status]).toEqual([name, 403]);
      expect(res.body.title).toBe('Forbidden');
    }
    expect((await putFile(variants.noSignature, content)).body.errors?.[0]).toMatch(/incomplete/);
    expect((await putFile(variants.flippedSignature, content)).body.errors?.[0]).toMatch(/signature is not valid/);
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
  });

  it('names what is wrong with an upload address: the parameter given twice, or the one missing', async () => {
    const content = uniqueCensus();
    const grant = await grantFor(server.url, token, metadata(content));
    const url = new URL(grant.uploadUrl);
    const [expires, signature] = [url.searchParams.get('expires'), url.searchParams.get('signature')];
    const base = `${url.origin}${url.pathname}`;
    const given = 'use the uploadUrl exactly as it was given';
    for (const [query, message] of [
      [`expires=1&expires=${expires}&signature=${signature}`, `expires is given more than once in the upload address; ${given}`],
      [`expires=${expires}&signature=${signature}&signature=${signature}`, `signature is given more than once in the upload address; ${given}`],
      [`expires=${expires}&expires=${expires}&signature=${signature}&signature=x`, `expires and signature are given more than once in the upload address; ${given}`],
      [`expires=${expires}`, `the upload address is incomplete: its signature parameter is missing; ${given}`],
      [`signature=${signature}&expires=`, `the upload address is incomplete: its expires parameter is missing; ${given}`],
      ['', `the upload address is incomplete: its expires and signature parameters are missing; ${given}`],
    ] as const) {
      const res = await putFile(`${base}?${query}`, content);
      expect([query, res.status, res.body.errors]).toEqual([query, 403, [message]]);
    }
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
  });

  it('refuses a content type other than text/csv with 415', async () => {
    const content = uniqueCensus();
    const grant = await grantFor(server.url, token, metadata(content));
    for (const type of ['application/octet-stream', 'application/json', 'text/plain']) {
      expect((await putFile(grant.uploadUrl, content, type)).status).toBe(415);
    }
    const none = await fetch(grant.uploadUrl, { method: 'PUT', body: new Uint8Array(Buffer.from(content)) });
    expect(none.status).toBe(415);
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
  });

  it('ignores a bearer token and answers 405 to other methods', async () => {
    const content = uniqueCensus();
    const grant = await grantFor(server.url, token, metadata(content));
    expect((await fetch(grant.uploadUrl, { method: 'POST', body: content, headers: { 'content-type': 'text/csv' } })).status).toBe(405);
    const res = await fetch(grant.uploadUrl, { method: 'PUT', body: content, headers: { 'content-type': 'text/csv', authorization: 'Bearer junk' } });
    expect(res.status).toBe(200);
  });
});

it('answers 403 saying the address expired', async () => {
  const short = await startTestServer({ uploadTtlSeconds: 1 });
  try {
    const content = uniqueCensus();
    const grant = await grantFor(short.url, await getToken(short.url), metadata(content));
    const expires = Number(new URL(grant.uploadUrl).searchParams.get('expires'));
    await new Promise((r) => setTimeout(r, expires * 1000 - Date.now() + 50));
    const res = await putFile(grant.uploadUrl, content);
    expect(res.status).toBe(403);
    expect(res.body.errors?.[0]).toMatch(/^the upload address expired at .*; request a new upload address/);
  } finally {
    await short.stop();
  }
});

it('retires a grant whose address expired unused: its import no longer waits in the listings, one being received stays', async () => {
  // Addresses good for 2 to 3 s: time for the slow upload below to begin before its address expires, however loaded
  // the machine is.
  const short = await startTestServer({ uploadTtlSeconds: 2 });
  try {
    const shortToken = await getToken(short.url);
    const unused = uniqueCensus();
    const slow = uniqueCensus();
    const [unusedGrant, slowGrant] = await Promise.all([unused, slow].map((c) => grantFor(short.url, shortToken, metadata(c))));
    // An upload begun before its address expires, whose last bytes come after: once the listing below was read.
    const half = Buffer.byteLength(slow) >> 1;
    const url = new URL(slowGrant!.uploadUrl);
    const req = request({ host: url.hostname, port: url.port, method: 'PUT', path: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'text/csv', 'content-length': Buffer.byteLength(slow) } });
    const answered = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    req.write(Buffer.from(slow).subarray(0, half));
    // Being received: its address was checked, and taken, before it expired.
    await eventually(() => (short.ctx.receiving.has(fileIdOf(slowGrant!.uploadUrl)) ? true : undefined));
    // A second after the expiry, as the listing counts whole seconds.
    const expires = Number(new URL(unusedGrant!.uploadUrl).searchParams.get('expires'));
    await new Promise((r) => setTimeout(r, expires * 1000 - Date.now() + 1_100));
    const listed = (await api(short.url, shortToken, 'GET', '/local/v1/imports')).body as { fileName?: string; status: string }[];
    expect(listed.filter((i) => i.status === 'AWAITING_UPLOAD').map((i) => i.fileName)).toEqual([slowGrant!.fileName]);
    expect(short.ctx.db.prepare('SELECT status FROM files WHERE checksum = ?').get(md5(unused))).toMatchObject({ status: 'SUPERSEDED' });
    req.end(Buffer.from(slow).subarray(half));
    expect(await answered).toBe(200);
    expect((await finishedImport(short, slowGrant!.uploadUrl)).status).toBe('PROCESSED');
    // The checksum may be granted again, as after any grant that was never used.
    expect((await postSubmissions(short.url, shortToken, [metadata(unused)])).status).toBe(201);
  } finally {
    await short.stop();
  }
});

it('remembers uploaded checksums across a restart on the same data folder', async () => {
  const first = await startTestServer();
  const dataDir = first.dataDir;
  const content = uniqueCensus();
  try {
    const firstToken = await getToken(first.url);
    const grant = await grantFor(first.url, firstToken, metadata(content));
    expect((await putFile(grant.uploadUrl, content)).status).toBe(200);
    await finishedImport(first, grant.uploadUrl);
    await first.close();

    const second = await startTestServer({ dataDir });
    try {
      const res = await postSubmissions(second.url, await getToken(second.url), [metadata(content)]);
      expect(res.status).toBe(422);
      expect((res.body as { errors: string[] }).errors[0]).toMatch(/already uploaded/);
    } finally {
      await second.stop();
    }
  } finally {
    await first.stop();
  }
});
