/** What the queue needs of the API client (electron/core/api): the handshake, the PUT and the JSON batches. */
import type { FileMetadata, ImportCreated, RecordKind, UploadGrant } from '../../../shared';

export type QueueApi = {
  /** POST /law/api/v1/payroll-submissions; grants in request order. */
  requestGrants(items: FileMetadata[]): Promise<UploadGrant[]>;
  /** Streams the file to the pre-signed address; no retries inside. */
  uploadFile(
    uploadUrl: string,
    filePath: string,
    options: { size: number; onProgress?: (sentBytes: number) => void; signal?: AbortSignal },
  ): Promise<{ etag: string }>;
  sendBatch(kind: RecordKind, records: unknown[]): Promise<ImportCreated>;
};
