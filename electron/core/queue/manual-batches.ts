/** Manual JSON batches: validated with the shared schemas, journaled, sent once, the outcome kept. */
import type { ImportCreated, RecordKind } from '../../../shared';
import { describeError } from '../../lib/fs-errors';
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
  let created: ImportCreated;
  try {
    created = await core.api.sendBatch(kind, parsed.data);
  } catch (error) {
    batch = core.journal.updateBatch(batch.id, batchFailure(error), core.now());
    core.emit('batch', batch);
    return { batch };
  }
  // The service holds the records from here on. A journal that cannot note it now (another program's lock, a full
  // disk) must never make the batch `failed`, which a clerk would send again and so import twice: the batch is told
  // as sent, as it is, and the journal keeps `sending`, which the next start calls `unknown` (see above).
  const sent = { state: 'sent', importId: created.id, receivedAt: created.receivedAt } as const;
  try {
    batch = core.journal.updateBatch(batch.id, sent, core.now());
  } catch (error) {
    core.logger.error(`${kind} batch ${batch.id} was imported as ${created.id}, but the upload journal could not note it `
      + `(${describeError(error)}): after a restart it shows as outcome unknown`);
    batch = { ...batch, ...sent, stateChangedAt: core.now() };
  }
  core.emit('batch', batch);
  return { batch, created };
}
