import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileMetadata } from '../../../shared';
import type { TestServer } from '../../../test/helpers/local-server';
import { TEST_CLIENT, startTestServer, tempDir } from '../../../test/helpers/local-server';
import { AbortError, ApiError, FileChangedError } from './api-errors';
import type { ApiClient } from './api-client';
import { createApiClient } from './api-client';

const HEADER = 'lastName,firstName,employeeRegistration,hireDate,employeeStatus\n';

async function md5Of(path: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Writes a little over `megabytes` MiB of CSV to `path`, a MiB at a time. Its `padding` column is unknown, so
 * the server rejects the file at its header, quickly: the upload itself is what these tests are about.
 */
async function writeBigCsv(path: string, megabytes: number): Promise<number> {
  const header = 'lastName,firstName,employeeRegistration,hireDate,employeeStatus,padding\n';
  const out = createWriteStream(path);
  out.write(header);
  let size = header.length;
  for (let chunk = 0; chunk < megabytes; chunk++) {
    const rows: string[] = [];
    for (let i = 0; i < 16_384; i++) rows.push(`${`Silva,Ana,E-${chunk}-${i},2024-03-01,ACTIVE,`.padEnd(63, 'p')}\n`); // 64 bytes: 1 MiB per chunk
    const text = rows.join('');
    size += Buffer.byteLength(text);
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return size;
}

const meta = (fileName: string, checksum: string): FileMetadata => ({ fileType: '1', referenceDate: '2026-01-31T00:00:00Z', checksum, fileName });

describe('file handshake and upload', () => {
  let dir: string;
  let server: TestServer;
  let api: ApiClient;
  let seq = 0;

  /** A small valid census file with its own rows (so its checksum is new), and its grant. */
  async function smallFileWithGrant(): Promise<{ path: string; size: number; url: string; checksum: string }> {
    seq++;
    const path = join(dir, `census-${seq}.csv`);
    await writeFile(path, `${HEADER}Silva,Ana,S-${seq},2024-03-01,ACTIVE\n`);
    const checksum = await md5Of(path);
    const [grant] = await api.requestGrants([meta(`census-${seq}.csv`, checksum)]);
    const size = Buffer.byteLength(`${HEADER}Silva,Ana,S-${seq},2024-03-01,ACTIVE\n`);
    return { path, size, url: grant?.uploadUrl ?? '', checksum };
  }

  beforeAll(async () => {
    dir = await tempDir('payroll-upload-');
    server = await startTestServer();
    api = createApiClient({
      baseUrl: server.url, proxy: '', retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 5 },
      credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
    });
  });
  afterAll(async () => {
    api.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('streams a 60 MB file: the server ETag is the file MD5, progress reaches the size, a second PUT is a 409', async () => {
    const path = join(dir, 'big-census.csv');
    const size = await writeBigCsv(path, 60);
    expect(size).toBeGreaterThan(60 * 1024 * 1024);
    const checksum = await md5Of(path);
    const grants = await api.requestGrants([meta('big-census.csv', checksum)]);
    expect(grants).toMatchObject([{ fileName: 'big-census.csv', fileType: 'Census' }]);

    const progress: [number, number][] = [];
    const { etag } = await api.uploadFile(grants[0]?.uploadUrl ?? '', path, { size, onProgress: (sent, total) => progress.push([sent, total]) });
    expect(etag).toBe(checksum);
    expect(progress.at(-1)).toEqual([size, size]);
    expect(progress.every(([sent, total], i) => total === size && sent <= size && (i === 0 || sent > (progress[i - 1]?.[0] ?? 0)))).toBe(true);

    // A second PUT to the used address: the 409 says the service holds this MD5, which proves arrival.
    const again = await api.uploadFile(grants[0]?.uploadUrl ?? '', path, { size, md5: checksum });
    expect(again).toMatchObject({ etag: checksum, alreadyUploaded: true, importId: expect.any(String) as string });
    // For another checksum the same answer proves nothing: an ApiError.
    const other = await api.uploadFile(grants[0]?.uploadUrl ?? '', path, { size, md5: '0'.repeat(32) }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ApiError);
    expect((other as ApiError).status).toBe(409);
  });

  it('reports a tampered address as a 403 with the server message', async () => {
    const file = await smallFileWithGrant();
    const tampered = file.url.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    expect(tampered).not.toBe(file.url);
    const error = await api.uploadFile(tampered, file.path, { size: file.size }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).messages.join(' ')).toContain('signature');
  });

  it('reports a body whose MD5 differs from the declared checksum as a 400, and the grant stays usable', async () => {
    const file = await smallFileWithGrant();
    const other = join(dir, 'other.csv');
    const body = `${HEADER}Souza,Rui,X-${seq},2024-03-01,ACTIVE\n`;
    await writeFile(other, body);
    const error = await api.uploadFile(file.url, other, { size: Buffer.byteLength(body) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((await api.uploadFile(file.url, file.path, { size: file.size })).etag).toBe(file.checksum);
  });

  it('stops at an abort, after which the same address still takes the file', async () => {
    const path = join(dir, 'abort-census.csv');
    const size = await writeBigCsv(path, 8);
    const checksum = await md5Of(path);
    const [grant] = await api.requestGrants([meta('abort-census.csv', checksum)]);
    const controller = new AbortController();
    const error = await api.uploadFile(grant?.uploadUrl ?? '', path, { size, signal: controller.signal, onProgress: () => controller.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((await api.uploadFile(grant?.uploadUrl ?? '', path, { size })).etag).toBe(checksum);
  });

  it('refuses to send a file whose size changed since it was hashed', async () => {
    const file = await smallFileWithGrant();
    await expect(api.uploadFile(file.url, file.path, { size: file.size + 1 })).rejects.toBeInstanceOf(FileChangedError);
  });
});
