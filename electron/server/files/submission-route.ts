/** POST /law/api/v1/payroll-submissions: the first half of the file handshake (docs/service-decisions.md §4). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FileMetadata, UploadGrant } from '../../../shared';
import { FILE_TYPES, LIMITS, formatIssues, submissionRequestSchema } from '../../../shared';
import { requireScope } from '../auth/require-scope';
import type { ServerContext } from '../context';
import { insertImport } from '../db/imports-repo';
import { HttpError } from '../http/http-error';
import { requestBaseUrl } from '../http/request-base-url';
import type { FileRow } from './files-repo';
import { insertFile, liveFilesWithChecksum, supersedeGrant } from './files-repo';
import { signedUploadUrl } from './upload-signature';

const JSON_TYPE_RE = /^application\/(json|[a-z0-9.-]+\+json)\s*(;.*)?$/i;

/** Expiry in whole Unix seconds, rounded up so an address lives at least `ttl` seconds. */
export const expiryOf = (now: number, ttlSeconds: number) => Math.ceil(now / 1000) + ttlSeconds;
export const isoOfUnix = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** The 422 rules: a checksum already uploaded by this client, or repeated within the request. */
function duplicateViolations(ctx: ServerContext, clientId: string, items: FileMetadata[]): { messages: string[]; granted: FileRow[] } {
  const messages: string[] = [];
  const granted: FileRow[] = [];
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    const checksum = item.checksum.toLowerCase();
    const seen = first.get(checksum);
    if (seen !== undefined) {
      messages.push(`[${i}].checksum: ${item.checksum} repeats the checksum of [${seen}] (${items[seen]?.fileName}); send each file once`);
      return;
    }
    first.set(checksum, i);
    for (const file of liveFilesWithChecksum(ctx.db, clientId, checksum)) {
      if (file.status === 'UPLOADED') {
        messages.push(
          `[${i}].checksum: the file ${file.file_name} with this checksum was already uploaded at ${file.uploaded_at} (import ${file.import_id}); a file is imported only once`,
        );
      } else {
        granted.push(file);
      }
    }
  });
  return { messages, granted };
}

export function submissionRoute(ctx: ServerContext) {
  return (app: FastifyInstance) => {
    app.post(
      '/law/api/v1/payroll-submissions',
      { bodyLimit: LIMITS.submissionBodyBytes, onRequest: requireScope(ctx, 'submissions:write') },
      async (request, reply) => {
        if (!JSON_TYPE_RE.test(request.headers['content-type'] ?? '')) {
          throw new HttpError(415, ['the body must be JSON: Content-Type application/json, application/json-patch+json or another +json type']);
        }
        const parsed = submissionRequestSchema.safeParse(request.body);
        if (!parsed.success) throw new HttpError(400, formatIssues(parsed.error));
        const items = parsed.data as FileMetadata[];
        const clientId = request.clientId as string;
        const { messages, granted } = duplicateViolations(ctx, clientId, items);
        if (messages.length) throw new HttpError(422, messages);

        const expires = expiryOf(Date.now(), ctx.options.uploadTtlSeconds);
        // Where the client sent this request, so the upload goes where it already talks (and its TLS check holds).
        const baseUrl = requestBaseUrl(ctx, request);
        const grants: UploadGrant[] = [];
        ctx.db.transaction(() => {
          for (const old of granted) supersedeGrant(ctx.db, old);
          for (const item of items) {
            const type = FILE_TYPES[item.fileType];
            const fileId = randomUUID();
            const importId = randomUUID();
            insertImport(ctx.db, { id: importId, client_id: clientId, kind: type.kind, source: 'file', status: 'AWAITING_UPLOAD', file_name: item.fileName });
            insertFile(ctx.db, {
              id: fileId, client_id: clientId, import_id: importId, file_name: item.fileName, file_type: item.fileType,
              checksum: item.checksum.toLowerCase(), reference_date: item.referenceDate, expires_at: expires,
            });
            grants.push({
              fileName: item.fileName, fileType: type.name,
              uploadUrl: signedUploadUrl(ctx.keys.upload, baseUrl, fileId, expires), expiration: isoOfUnix(expires),
            });
          }
        })();
        return reply.code(201).send(grants);
      },
    );
  };
}
