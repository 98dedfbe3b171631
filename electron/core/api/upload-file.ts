/** The pre-signed PUT: streamed from disk, no Authorization, no redirects, no retries (the queue decides). */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { FileChangedError, NetworkError, UploadMismatchError } from './api-errors';
import type { Transport } from './http-transport';
import { errorFromResponse, responseHeader } from './responses';
import { checkUrl } from './url-policy';

export type UploadOptions = {
  size: number;
  /** Called at most every PROGRESS_INTERVAL_MS, and once more when the last byte went out. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  /**
   * The MD5 (hex) the address was granted for. With it, an answer counts as arrived only when it proves the service
   * holds this checksum: a 2xx whose ETag (when given) is this MD5, or a 409 saying `Upload-Status: uploaded` with this
   * MD5 as ETag. Any other 409 (an upload to the address still in progress) is an ApiError, to be retried.
   */
  md5?: string;
};

/** What a PUT that arrived tells: the stored MD5, the import id when the service says it, and whether an earlier PUT had already delivered it. */
export type UploadResult = { etag: string | undefined; importId?: string; alreadyUploaded?: boolean };

export const PROGRESS_INTERVAL_MS = 200;
/** Answers to a PUT are small error bodies; anything bigger is not our server. */
const MAX_UPLOAD_ANSWER_BYTES = 64 * 1024;

/** The `importId` of the service's 200 answer, when it gives one (a foreign store may answer with no body). */
function importIdOf(body: Buffer): string | undefined {
  try {
    const value = (JSON.parse(body.toString('utf8')) as { importId?: unknown }).importId;
    return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The entity tag without quotes or weak prefix: for our service, the file's MD5 in hex. */
function etagValue(raw: string | undefined): string | undefined {
  return raw?.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

export async function uploadFile(
  transport: Transport, idleTimeoutMs: number, uploadUrl: string, filePath: string, opts: UploadOptions,
): Promise<UploadResult> {
  const url = checkUrl(uploadUrl, 'the upload address');
  const { size, onProgress } = opts;
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`the upload size must be a whole number of bytes, not ${size}`);
  const info = await stat(filePath);
  if (!info.isFile()) throw new Error(`${filePath} is not a file`);
  if (info.size !== size) throw new FileChangedError(filePath, size, info.size);

  const request = `PUT ${url.pathname}`;
  let lastAt = 0;
  let lastSent = -1;
  const report = (sent: number) => {
    if (!onProgress) return;
    const now = Date.now();
    if (sent !== size && now - lastAt < PROGRESS_INTERVAL_MS) return;
    lastAt = now;
    lastSent = sent;
    onProgress(sent, size);
  };

  let res;
  try {
    res = await transport.send({
      method: 'PUT',
      url,
      headers: { 'content-type': 'text/csv', 'content-length': String(size) },
      // The range stops at `size` even if the file grew meanwhile; a shrunk file trips the length check.
      body: size > 0 ? () => createReadStream(filePath, { start: 0, end: size - 1, highWaterMark: 1024 * 1024 }) : Buffer.alloc(0),
      timeout: { ms: idleTimeoutMs, kind: 'idle' },
      maxResponseBytes: MAX_UPLOAD_ANSWER_BYTES,
      ...(opts.signal ? { signal: opts.signal } : {}),
      onBodyBytes: report,
    });
  } catch (error) {
    if (error instanceof NetworkError && error.code === 'ERR_HTTP_CONTENT_LENGTH_MISMATCH') {
      throw new FileChangedError(filePath, size, undefined);
    }
    throw error;
  }
  const etag = etagValue(responseHeader(res, 'etag'));
  if (res.status === 409 && responseHeader(res, 'upload-status') === 'uploaded' && etag !== undefined
    && (opts.md5 === undefined || etag.toLowerCase() === opts.md5.toLowerCase())) {
    const importId = responseHeader(res, 'import-id');
    return { etag, alreadyUploaded: true, ...(importId ? { importId } : {}) };
  }
  if (res.status < 200 || res.status >= 300) throw errorFromResponse(res, request);
  if (opts.md5 !== undefined && etag !== undefined && etag.toLowerCase() !== opts.md5.toLowerCase()) {
    throw new UploadMismatchError(`${request}: the service stored a file with MD5 ${etag}, not ${opts.md5}`);
  }
  if (onProgress && lastSent !== size) onProgress(size, size);
  const importId = importIdOf(res.body);
  return { etag, ...(importId ? { importId } : {}) };
}
