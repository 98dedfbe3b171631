export { LOCK_FILE, createUploadQueue, type UploadQueue, type UploadQueueOptions } from './upload-queue';
export { BatchValidationError } from './manual-batches';
export { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './backoff';
export { openJournal, JOURNAL_FILE, type Journal, type JobPatch } from './journal';
export { DISAPPEARED, takenOverNote } from './queue-core';
export { GRANT_MARGIN_MS } from './grant-life';
export type { QueueApi } from './queue-api';
export * from './job-types';
