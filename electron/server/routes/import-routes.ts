/** POST /law/api/v1/census and /law/api/v1/receipt: direct JSON imports (docs/service-decisions.md §1 and §3). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { CensusRecord, ImportCreated, ReceiptRecord, RecordKind } from '../../../shared';
import { LIMITS, batchSchemas, formatIssues, quickRecordCheck } from '../../../shared';
import { requireScope } from '../auth/require-scope';
import type { ServerContext } from '../context';
import { insertImport } from '../db/imports-repo';
import { HttpError } from '../http/http-error';

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

const quick = { census: quickRecordCheck('census'), receipt: quickRecordCheck('receipt') };

/** The batch's records: the fast path when every record is surely valid, else zod, which words every error. */
function batchRecords(kind: RecordKind, body: unknown): unknown[] {
  if (Array.isArray(body) && body.length > 0) {
    const records: unknown[] = [];
    for (const item of body) {
      const record = quick[kind](item);
      if (!record) break;
      records.push(record);
    }
    if (records.length === body.length) return records;
  }
  const parsed = batchSchemas[kind].safeParse(body);
  if (!parsed.success) throw new HttpError(400, formatIssues(parsed.error));
  return parsed.data;
}

export function importRoutes(ctx: ServerContext) {
  return (app: FastifyInstance) => {
    for (const kind of ['census', 'receipt'] as const) {
      app.post(
        `/law/api/v1/${kind}`,
        { bodyLimit: LIMITS.jsonBodyBytes, onRequest: requireScope(ctx, `${kind}:write`) },
        async (request, reply) => {
          const records = batchRecords(kind, request.body);
          const violations = batchRuleViolations(kind, records);
          if (violations.length) throw new HttpError(422, violations);

          const id = randomUUID();
          const payload = JSON.stringify(records);
          const receivedAt = await ctx.writes.run(() => insertImport(ctx.db, {
            id, client_id: request.clientId as string, kind, source: 'json', status: 'QUEUED', records: records.length, payload,
          }));
          ctx.processor.schedule(id, {
            id, client_id: request.clientId as string, kind, source: 'json', file_name: null, status: 'QUEUED', records: records.length,
            accepted: 0, rejected: 0, errors: '[]', reason: null, payload: null, received_at: receivedAt, processed_at: null, parsed: records,
          });
          const body: ImportCreated = { id, status: 'QUEUED', records: records.length, receivedAt };
          return reply.code(201).header('Location', `/local/v1/imports/${id}`).send(body);
        },
      );
    }
  };
}
