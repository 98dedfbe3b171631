/** Manual JSON batches: validated with the shared schemas, journaled, sent once, the outcome kept. */
import type { RecordKind } from '../../../shared';
import { batchSchemas, formatIssues, RECORD_KINDS } from '../../../shared';
import { batchFailure } from './batch-failure';
import type { BatchResult } from './job-types';
import type { QueueCore } from './queue-core';

/** The records break the contract; nothing was sent. `messages` name the record index and field. */
export class BatchValidationError extends Error {
  constructor(readonly kind: string, readonly messages: string[]) {
    super(`The ${kind} batch was not sent: ${messages.slice(0, 5).join('; ')}${messages.length > 5 ? ` (and ${messages.length - 5} more)` : ''}`);
    this.name = 'BatchValidationError';
  }
}

/**
 * Sends a batch. Throws BatchValidationError for bad records (nothing journaled or sent); otherwise resolves with
 * the journaled batch: `sent` with the import id, `failed` with the reason when the service surely does not hold it,
 * `unknown` when it may (no answer after the records went out: see batch-failure.ts). A batch is never re-sent on its
 * own: its outcome is `unknown` after a crash mid-send too, because sending again could import the records twice.
 */
export async function sendManualBatch(core: QueueCore, kind: RecordKind, records: unknown): Promise<BatchResult> {
  if (!(RECORD_KINDS as readonly string[]).includes(kind)) {
    throw new BatchValidationError(String(kind), [`the kind must be one of ${RECORD_KINDS.join(', ')}`]);
  }
  const parsed = batchSchemas[kind].safeParse(records);
  if (!parsed.success) throw new BatchValidationError(kind, formatIssues(parsed.error));
  let batch = core.journal.insertBatch(kind, parsed.data.length, core.now(), core.service);
  core.emit('batch', batch);
  try {
    const created = await core.api.sendBatch(kind, parsed.data);
    batch = core.journal.updateBatch(batch.id, { state: 'sent', importId: created.id, receivedAt: created.receivedAt }, core.now());
    core.emit('batch', batch);
    return { batch, created };
  } catch (error) {
    batch = core.journal.updateBatch(batch.id, batchFailure(error), core.now());
    core.emit('batch', batch);
    return { batch };
  }
}
