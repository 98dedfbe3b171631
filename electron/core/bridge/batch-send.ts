/** batches.send: every problem mapped to a record index and field, from the local check or the service's answer. */
import { batchSchemas, type RecordKind } from '../../../shared';
import type { BatchProblem, BatchSendResult } from '../../../shared/bridge';
import type { Session } from '../session';
import { serviceProblems } from './service-problems';
import { toBatchView } from './views';

export function localProblems(kind: RecordKind, records: unknown[]): BatchProblem[] {
  const parsed = batchSchemas[kind].safeParse(records);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const [index, ...field] = issue.path;
    return {
      ...(typeof index === 'number' ? { index } : {}),
      ...(field.length > 0 ? { field: field.map(String).join('.') } : {}),
      message: issue.message, source: 'local',
    };
  });
}

export async function sendBatch(session: Session, kind: RecordKind, records: unknown[]): Promise<BatchSendResult> {
  const problems = localProblems(kind, records);
  if (problems.length > 0) return { ok: false, problems };
  const { batch, created } = await session.sendBatch(kind, records);
  if (created) return { ok: true, importId: created.id, records: created.records, receivedAt: created.receivedAt, batch: toBatchView(batch) };
  return { ok: false, problems: serviceProblems(batch.error ?? 'the service did not accept the batch'), batch: toBatchView(batch) };
}
