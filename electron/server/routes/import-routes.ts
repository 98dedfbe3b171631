/** POST /law/api/v1/census and /law/api/v1/receipt: direct JSON imports (docs/service-decisions.md §1 and §3). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { CensusRecord, ImportCreated, ReceiptRecord, RecordKind } from '../../../shared';
import { LIMITS, batchSchemas, formatIssues, quickRecordCheck, recordSchemas } from '../../../shared';
import { requireScope } from '../auth/require-scope';
import type { ServerContext } from '../context';
import type { ImportRow } from '../db/imports-repo';
import { MAX_KEPT_ERRORS, insertFinishedImport, insertImport, payloadToStore, toImportResult } from '../db/imports-repo';
import { rawJsonBody } from '../http/json-body';
import { processJsonBatch } from '../processing/json-batches';
import { HttpError } from '../http/http-error';
import { processingHold } from '../local/faults';

function repeats<T>(records: T[], key: (r: T) => string, describe: (r: T) => string): string[] {
  const first = new Map<string, number>();
  const messages: string[] = [];
  records.forEach((r, i) => {
    const k = key(r);
    const seen = first.get(k);
    if (seen === undefined) first.set(k, i);
    else messages.push(`[${i}] repeats ${describe(r)} of [${seen}]`);
  });
  return messages;
}

/** The business rules that refuse a whole batch (422). */
export function batchRuleViolations(kind: RecordKind, records: unknown[]): string[] {
  if (kind === 'census') {
    const census = records as CensusRecord[];
    return repeats(census, (r) => r.employeeRegistration, (r) => `employeeRegistration ${r.employeeRegistration}`);
  }
  const receipts = records as ReceiptRecord[];
  return repeats(
    receipts,
    (r) => JSON.stringify([r.employeeRegistration, r.paymentDate, r.amount]),
    (r) => `the receipt (employeeRegistration ${r.employeeRegistration}, paymentDate ${r.paymentDate}, amount ${r.amount})`,
  );
}

/** Batches up to this size may be processed as they are recorded; larger ones would delay their own 201. */
const INLINE_MAX_RECORDS = 100;

/** Processes a batch inside the current write and records it finished; returns its row. */
function processedAtOnce(ctx: ServerContext, batch: { id: string; clientId: string; kind: RecordKind; records: unknown[] }): ImportRow {
  const now = new Date().toISOString();
  const row: ImportRow = {
    id: batch.id, client_id: batch.clientId, kind: batch.kind, source: 'json', file_name: null, status: 'PROCESSING',
    records: batch.records.length, accepted: 0, rejected: 0, errors: '[]', reason: null, payload: null, received_at: now,
    processed_at: null, parsed: batch.records,
  };
  const outcome = processJsonBatch(ctx.db, row);
  const finished: ImportRow = outcome.status === 'PROCESSED'
    ? { ...row, status: 'PROCESSED', accepted: outcome.accepted, rejected: outcome.rejected,
      errors: JSON.stringify(outcome.errors.slice(0, MAX_KEPT_ERRORS)), processed_at: now, parsed: undefined }
    : { ...row, status: 'REJECTED', reason: outcome.reason, processed_at: now, parsed: undefined };
  insertFinishedImport(ctx.db, finished);
  return finished;
}

const quick = { census: quickRecordCheck('census'), receipt: quickRecordCheck('receipt') };

/**
 * The batch's records: the fast path when every record is surely valid, else zod, which words every error.
 * `asSent` is true when the records are the body's own values unchanged, so the body's bytes are their JSON.
 */
function batchRecords(kind: RecordKind, body: unknown): { records: unknown[]; asSent: boolean } {
  if (Array.isArray(body) && body.length > 0) {
    const records: unknown[] = [];
    let asSent = true;
    for (const item of body) {
      const record = quick[kind](item);
      if (!record) break;
      if (record !== item) asSent = false;
      records.push(record);
    }
    if (records.length === body.length) return { records, asSent };
  }
  if (!Array.isArray(body) || body.length === 0) {
    const parsed = batchSchemas[kind].safeParse(body);
    if (!parsed.success) throw new HttpError(400, formatIssues(parsed.error));
  }
  // Record by record, so a batch of a million bad records stops at the first LIMITS.listedErrors problems
  // instead of wording every one of them.
  const records: unknown[] = [];
  const problems: string[] = [];
  for (let i = 0; i < (body as unknown[]).length; i++) {
    const parsed = recordSchemas[kind].safeParse((body as unknown[])[i]);
    if (parsed.success) {
      records.push(parsed.data);
      continue;
    }
    problems.push(...formatIssues(parsed.error, '', [i]));
    if (problems.length >= LIMITS.listedErrors && i < (body as unknown[]).length - 1) {
      problems.length = LIMITS.listedErrors - 1;
      problems.push(`… and records after [${i}] were not checked (only the first problems are listed)`);
      break;
    }
  }
  if (problems.length) throw new HttpError(400, problems);
  return { records, asSent: false };
}

export function importRoutes(ctx: ServerContext) {
  return (app: FastifyInstance) => {
    for (const kind of ['census', 'receipt'] as const) {
      app.post(
        `/law/api/v1/${kind}`,
        { bodyLimit: LIMITS.jsonBodyBytes, onRequest: requireScope(ctx, `${kind}:write`) },
        async (request, reply) => {
          const { records, asSent } = batchRecords(kind, request.body);
          const violations = batchRuleViolations(kind, records);
          if (violations.length) throw new HttpError(422, violations);

          const id = randomUUID();
          const clientId = request.clientId as string;
          // A batch a fault rule holds back (processingDelayMs) waits in the queue like a large one.
          const inlineAllowed = records.length <= INLINE_MAX_RECORDS && request.delayingRule === undefined;
          // A batch that will wait for the processor is kept as sent (no second serialisation), deflated off the event loop.
          const raw = asSent ? rawJsonBody(request) : undefined;
          const prepared = inlineAllowed ? undefined : await payloadToStore(raw ?? JSON.stringify(records));
          const accepted = await ctx.writes.run((): { inline: ImportRow } | { receivedAt: string } => {
            // Nothing else waiting: a small batch is processed in the same transaction that records it, so it costs
            // one write and no payload (docs/service-decisions.md §3: imports are still processed in arrival order).
            if (inlineAllowed && ctx.processor.isIdle()) {
              try {
                return { inline: processedAtOnce(ctx, { id, clientId, kind, records }) };
              } catch (error) {
                // Queued instead: the processor reports what fails there.
                ctx.logger.warn(`import ${id} could not be processed at once: ${(error as Error).message}`);
              }
            }
            const receivedAt = insertImport(ctx.db, {
              id, client_id: clientId, kind, source: 'json', status: 'QUEUED', records: records.length,
              payload: prepared ?? JSON.stringify(records),
            });
            return { receivedAt };
          });
          let receivedAt: string;
          if ('inline' in accepted) {
            receivedAt = accepted.inline.received_at;
            ctx.deliveries.importFinished(clientId, toImportResult(accepted.inline));
          } else {
            receivedAt = accepted.receivedAt;
            ctx.processor.schedule(id, {
              id, client_id: clientId, kind, source: 'json', file_name: null, status: 'QUEUED', records: records.length,
              accepted: 0, rejected: 0, errors: '[]', reason: null, payload: null, received_at: receivedAt, processed_at: null, parsed: records,
            }, processingHold(request, clientId));
          }
          const body: ImportCreated = { id, status: 'QUEUED', records: records.length, receivedAt };
          return reply.code(201).header('Location', `/local/v1/imports/${id}`).send(body);
        },
      );
    }
  };
}
