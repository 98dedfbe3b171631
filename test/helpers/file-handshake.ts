/** The file handshake over real HTTP, for tests: grants, uploads, and the import an upload made. */
import { request as httpRequest } from 'node:http';
import type { ImportRow } from '../../electron/server/db/imports-repo';
import { getImport } from '../../electron/server/db/imports-repo';
import type { RunningServer } from '../../electron/server/server';
import type { UploadGrant } from '../../shared';
import { api, eventually } from './local-server';
import { md5 } from './csv-fixtures';

export type Metadata = { fileType: string; referenceDate: string; checksum: string; fileName: string };

export const metadata = (content: string | Buffer, over: Partial<Metadata> = {}): Metadata => ({
  fileType: '1', referenceDate: '2026-01-31T00:00:00Z', checksum: md5(content), fileName: 'census-2026-01.csv', ...over,
});

export async function postSubmissions(url: string, token: string, body: unknown, contentType = 'application/json') {
  return api(url, token, 'POST', '/law/api/v1/payroll-submissions', body, { 'content-type': contentType });
}

/** One grant, or a failed test with the server's answer. */
export async function grantFor(url: string, token: string, item: Metadata): Promise<UploadGrant> {
  const res = await postSubmissions(url, token, [item]);
  if (res.status !== 201) throw new Error(`grant refused: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as UploadGrant[])[0] as UploadGrant;
}

export async function putFile(uploadUrl: string, body: string | Buffer, contentType = 'text/csv') {
  const payload = typeof body === 'string' ? body : new Uint8Array(body);
  const res = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': contentType }, body: payload });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> & { errors?: string[] } };
}

export const fileIdOf = (uploadUrl: string) => new URL(uploadUrl).pathname.split('/').pop() as string;

export function importOfUpload(server: RunningServer, uploadUrl: string): ImportRow | undefined {
  const row = server.ctx.db.prepare('SELECT import_id FROM files WHERE id = ?').get(fileIdOf(uploadUrl)) as { import_id: string } | undefined;
  return row ? getImport(server.ctx.db, row.import_id) : undefined;
}

/** Waits until the import of an upload is PROCESSED or REJECTED. */
export function finishedImport(server: RunningServer, uploadUrl: string): Promise<ImportRow> {
  return eventually(() => {
    const row = importOfUpload(server, uploadUrl);
    return row && (row.status === 'PROCESSED' || row.status === 'REJECTED') ? row : undefined;
  });
}

/** Grant + upload + wait: the import a file became. */
export async function uploadAndProcess(server: RunningServer, token: string, content: string, over: Partial<Metadata> = {}): Promise<ImportRow> {
  const grant = await grantFor(server.url, token, metadata(content, over));
  const put = await putFile(grant.uploadUrl, content);
  if (put.status !== 200) throw new Error(`upload refused: ${put.status} ${JSON.stringify(put.body)}`);
  return finishedImport(server, grant.uploadUrl);
}

export type RawAnswer = { status: number; body: string; error?: string };

/**
 * A PUT over node:http that writes `chunks()` until the server answers (or the body ends), for
 * bodies too large to build in memory. A reset after the answer is fine: the answer is returned.
 */
export function rawPut(uploadUrl: string, headers: Record<string, string | number>, chunks: Iterable<Buffer>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(uploadUrl, { method: 'PUT', headers }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const it = chunks[Symbol.iterator]();
    const pump = () => {
      while (!answered && !req.destroyed) {
        const next = it.next();
        if (next.done) {
          req.end();
          return;
        }
        if (!req.write(next.value)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}
