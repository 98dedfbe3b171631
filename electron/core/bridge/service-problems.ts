/** A refused batch's reason as problems, each on the record and field it names. */
import type { BatchProblem } from '../../../shared/bridge';

/** `[2].hireDate: must be ...` and `[3] repeats ...`, the service's wording of record problems. */
const RECORD_MESSAGE = /^\[(\d+)\](?:\.([\w.[\]]+))?:?\s*(.*)$/s;

/**
 * The service's messages, joined with "; " in the journal, one by one. A reason that names no record is one problem
 * as it is: it is not the service's list (a failure of the connection, in the clerk's words), and a "; " in it is
 * part of a sentence, not a second message.
 */
export function serviceProblems(error: string): BatchProblem[] {
  const problems = error.split('; ').map((message): BatchProblem => {
    const match = RECORD_MESSAGE.exec(message);
    if (!match) return { message, source: 'service' };
    const [, index, field, rest] = match;
    return { index: Number(index), ...(field ? { field } : {}), message: rest || message, source: 'service' };
  });
  return problems.some((p) => p.index !== undefined) ? problems : [{ message: error, source: 'service' }];
}
