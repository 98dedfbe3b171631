/**
 * PUT /uploads/:fileId: the second half of the file handshake. No bearer token: the signed address
 * is the permission. The body is streamed to a temporary file while its MD5 is computed (on a thread of its own,
 * beside the event loop), never held in memory; only a complete file with the declared checksum is kept.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '../../../shared';
import type { ServerContext } from '../context';
import { md5OnThread } from '../../lib/md5-thread';
import { PRIVATE_FILE_MODE } from '../../lib/private-files';
import { isDiskFull } from '../../lib/sqlite-codes';
import { BODY_STALL_MS } from '../http/body-stall';
import { HttpError } from '../http/http-error';
import { processingHold } from '../local/faults';
import type { FileRow } from './files-repo';
import { getFile, markUploaded } from './files-repo';
import { isoOfUnix } from './submission-route';
import type { SignatureCheck } from './upload-signature';
import { UPLOAD_CONTENT_TYPE, checkUploadSignature } from './upload-signature';

/** Temporary files of uploads in progress; a start sweeps away those a crash left. */
export const PART_SUFFIX = '.part';

type UploadParams = { fileId: string };
type UploadQuery = { expires?: unknown; signature?: unknown };

declare module 'fastify' {
  // Declaration merging needs an interface here.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    uploadFile?: FileRow;
  }
}

const NEW_GRANT = 'request a new upload address with POST /law/api/v1/payroll-submissions';
/**
 * Machine-readable kind of a 409 on the PUT, in the `Upload-Status` header: `uploaded` (the service holds this
 * address's file; the header ETag is its MD5 and `Import-Id` its import) or `in-progress` (another upload to this
 * address is still being received: try again later). Only `uploaded` with the expected ETag proves arrival.
 */
export const UPLOAD_STATUS_HEADER = 'Upload-Status';
// Stops reading the rest of a refused body: the answer is sent, then the connection closed.
const CLOSE = { Connection: 'close' };

class TooLarge extends Error {}

/** The answer to an upload whose address is no longer open: replaced by a newer grant (403) or used already (409). */
function refusalOf(file: FileRow): HttpError {
  if (file.status === 'UPLOADED') {
    return new HttpError(409, [`the file ${file.file_name} was already uploaded to this address at ${file.uploaded_at}`], {}, {
      [UPLOAD_STATUS_HEADER]: 'uploaded', ETag: `"${file.checksum}"`, 'Import-Id': file.import_id,
    });
  }
  return new HttpError(403, ['this upload address was replaced by a newer grant for the same checksum; use the newest uploadUrl']);
}

/** What is wrong with an upload address whose signature check failed, in the order a client can fix it. */
function addressRefusal({ repeated, missing }: Extract<SignatureCheck, { ok: false }>): string {
  const list = (names: string[]) => names.join(' and ');
  if (repeated.length > 0) {
    return `${list(repeated)} ${repeated.length > 1 ? 'are' : 'is'} given more than once in the upload address; use the uploadUrl exactly as it was given`;
  }
  if (missing.length > 0) {
    return `the upload address is incomplete: its ${list(missing)} parameter${missing.length > 1 ? 's are' : ' is'} missing; `
      + 'use the uploadUrl exactly as it was given';
  }
  return 'the upload address signature is not valid; use the uploadUrl exactly as it was given';
}

/** The checks that need no body, in the order of docs/service-decisions.md §4. */
function checkUploadRequest(ctx: ServerContext, request: FastifyRequest): FileRow {
  const { fileId } = request.params as UploadParams;
  const query = request.query as UploadQuery;
  const file = getFile(ctx.db, fileId);
  // The request is about this file's client, refused or not: the request log shows it to that client only
  // (the answer below still does not tell a forged address of a known file from one of an unknown file).
  if (file) request.clientId = file.client_id;
  const signature = checkUploadSignature(ctx.keys.upload, fileId, query.expires, query.signature);
  if (!signature.ok) throw new HttpError(403, [addressRefusal(signature)]);
  if (Date.now() > signature.expires * 1000) {
    throw new HttpError(403, [`the upload address expired at ${isoOfUnix(signature.expires)}; ${NEW_GRANT}`]);
  }
  if (!file || file.expires_at !== signature.expires) throw new HttpError(403, [`the upload address is not known; ${NEW_GRANT}`]);
  if (file.status === 'SUPERSEDED') throw refusalOf(file);
  const type = request.headers['content-type'] ?? '';
  if (type.split(';')[0]?.trim().toLowerCase() !== UPLOAD_CONTENT_TYPE) {
    throw new HttpError(415, [`the upload must be sent with Content-Type: ${UPLOAD_CONTENT_TYPE}${type ? `, not ${type}` : ''}`]);
  }
  if (file.status === 'UPLOADED') throw refusalOf(file);
  if (ctx.receiving.has(file.id)) {
    throw new HttpError(409, [
      `an upload of ${file.file_name} to this address is already in progress; try again later (an upload that sends nothing for ${BODY_STALL_MS / 1000} s is cut off)`,
    ], {}, { [UPLOAD_STATUS_HEADER]: 'in-progress', 'Retry-After': String(Math.ceil(BODY_STALL_MS / 1000)) });
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > LIMITS.fileBytes) throw tooLarge(declared);
  return file;
}

const tooLarge = (size?: number) =>
  new HttpError(413, [`the file is larger than the limit of ${LIMITS.fileBytes} bytes (100 MB)${size ? `: ${size} bytes` : ''}; nothing was kept`], {}, CLOSE);

/**
 * The server's disk is full: the body could not be written (ENOSPC), or its arrival not recorded (SQLite's full
 * error). Nothing was kept and the address stays open: a problem of the service's that passes once space is freed,
 * so a 5xx the uploader tries again later, not its "unexpected failure" 500.
 */
const diskFull = (file: FileRow) => new HttpError(507, [
  `the server's disk is full, so the file ${file.file_name} could not be stored (nothing was kept); once space is freed on the `
    + `server's disk, this upload address can be used again (until ${isoOfUnix(file.expires_at)})`,
]);

const STALLED = Symbol('stalled');

/**
 * Streams the body to `path` while hashing; removes the file on any failure or after `stallMs` without a byte.
 * A stall is answered (408, then the connection closed) rather than cut: the client learns why.
 */
async function receiveBody(request: FastifyRequest, path: string, stallMs: number): Promise<{ md5: string; size: number }> {
  const hash = md5OnThread();
  const out = createWriteStream(path, { flags: 'wx', mode: PRIVATE_FILE_MODE });
  let failed: Error | undefined;
  out.on('error', (error) => {
    failed ??= error;
  });
  let size = 0;
  let stalled = false;
  // A client that went silent (its connection stalled behind a proxy, say) must not hold the address forever.
  let timer: NodeJS.Timeout | undefined;
  const silence = () => new Promise<typeof STALLED>((resolve) => {
    timer = setTimeout(() => resolve(STALLED), stallMs);
  });
  const chunks = request.raw.iterator({ destroyOnReturn: false })[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    for (;;) {
      const next = chunks.next();
      const step = await Promise.race([next, silence()]);
      clearTimeout(timer);
      if (step === STALLED) {
        stalled = true;
        // The read still waiting fails once the answer has closed the connection; nothing is left to learn from it.
        next.catch(() => undefined);
        throw new Error(`no byte received for ${stallMs / 1000} s`);
      }
      if (step.done) break;
      const chunk = step.value;
      size += chunk.length;
      if (size > LIMITS.fileBytes) throw new TooLarge();
      if (failed) throw failed;
      const hashing = hash.update(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
      if (hashing) await hashing;
    }
    await new Promise<void>((resolve, reject) => {
      out.end((error?: Error | null) => {
        if (!error) return resolve();
        failed ??= error;
        reject(error);
      });
    });
    if (failed) throw failed;
    return { md5: await hash.digest(), size };
  } catch (error) {
    hash.drop();
    clearTimeout(timer);
    out.destroy();
    await rm(path, { force: true });
    if (error instanceof TooLarge) throw tooLarge();
    if (stalled) {
      throw new HttpError(408, [`the upload sent no byte for ${stallMs / 1000} s and was cut off; nothing was kept, and this address can be used again`], {}, CLOSE);
    }
    // Writing failed (a full disk): the server's problem, never the client's, also once the whole body was read (the
    // request is destroyed then, as it is when the client breaks off).
    if (error === failed) throw error;
    if (request.raw.destroyed || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      throw new HttpError(400, ['the upload was interrupted before the end of the body; nothing was kept']);
    }
    throw error;
  }
}

export function uploadRoute(ctx: ServerContext) {
  const stallMs = ctx.options.bodyStallMs ?? BODY_STALL_MS;
  return (app: FastifyInstance) => {
    // Leaves the body unread: the handler streams request.raw itself.
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));

    app.put('/uploads/:fileId', {
      // The route reads the body itself and counts it; this is the limit Expect: 100-continue is measured against.
      bodyLimit: LIMITS.fileBytes,
      config: { streamsBody: true },
      onRequest: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        try {
          request.uploadFile = checkUploadRequest(ctx, request);
          done();
        } catch (error) {
          done(error as Error);
        }
      },
    }, async (request: FastifyRequest, reply: FastifyReply) => {
      const file = request.uploadFile as FileRow;
      ctx.receiving.add(file.id);
      const part = join(ctx.uploadsDir, `${file.id}.${randomUUID()}${PART_SUFFIX}`);
      try {
        const { md5, size } = await receiveBody(request, part, stallMs);
        if (md5 !== file.checksum) {
          await rm(part, { force: true });
          throw new HttpError(400, [
            `the MD5 of the uploaded body is ${md5}, not the declared checksum ${file.checksum}; nothing was kept, and this address can be used again until ${isoOfUnix(file.expires_at)}`,
          ]);
        }
        const stored = join(ctx.uploadsDir, `${file.id}.csv`);
        await rename(part, stored);
        let recorded: boolean;
        try {
          recorded = markUploaded(ctx.db, file, size, stored);
        } catch (error) {
          // Not recorded (a full disk, say): the address stays open, and the file is not kept.
          await rm(stored, { force: true });
          throw error;
        }
        if (!recorded) {
          await rm(stored, { force: true });
          // The address closed while the body arrived (a newer grant replaced it): answered as a new request would be.
          throw refusalOf(getFile(ctx.db, file.id) ?? { ...file, status: 'SUPERSEDED' });
        }
        ctx.processor.schedule(file.import_id, undefined, processingHold(request, file.client_id));
        return reply.code(200).header('ETag', `"${md5}"`).send({ importId: file.import_id, status: 'QUEUED', size, checksum: md5 });
      } catch (error) {
        // The temporary file, when the rename into place failed.
        await rm(part, { force: true });
        if (isDiskFull(error)) throw diskFull(file);
        throw error;
      } finally {
        ctx.receiving.delete(file.id);
      }
    });
  };
}
