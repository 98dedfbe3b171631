/** A JSON array of records (a file or pasted text) into form rows, refusing what the form could not show faithfully. */
import type { RecordKind } from '../../../shared';
import { LIMITS } from '../../../shared';
import { checkCell } from './cell-values';
import type { FormRow } from './record-fields';
import { FIELDS, emptyRow } from './record-fields';
import { sendRecordsText } from './send-records-text';

const c = sendRecordsText.check;

/** More records than this make the form slow to use; such batches belong in a CSV file. */
export const MAX_FORM_RECORDS = 500;

export type JsonRowsResult = { rows: FormRow[]; problems: string[] };

export function rowsOfJson(kind: RecordKind, text: string): JsonRowsResult {
  if (new TextEncoder().encode(text).length > LIMITS.jsonBodyBytes) return { rows: [], problems: [c.tooBig] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { rows: [], problems: [c.notJson((error as Error).message)] };
  }
  if (!Array.isArray(parsed)) return { rows: [], problems: [c.notArray] };
  if (parsed.length === 0) return { rows: [], problems: [c.emptyArray] };
  if (parsed.length > MAX_FORM_RECORDS) return { rows: [], problems: [c.tooMany(parsed.length, MAX_FORM_RECORDS)] };

  const specs = FIELDS[kind];
  const rows: FormRow[] = [];
  const problems: string[] = [];
  parsed.forEach((record: unknown, index) => {
    const where = c.record(index + 1);
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      problems.push(`${where} ${c.notObject}`);
      return;
    }
    const unknown = Object.keys(record).filter((key) => !specs.some((s) => s.name === key));
    if (unknown.length) problems.push(`${where} ${c.unknownFields(unknown)}`);
    const row = emptyRow(kind);
    for (const spec of specs) {
      const value = (record as Record<string, unknown>)[spec.name];
      if (value === undefined || value === null) continue;
      const at = `${where}, ${spec.label}`;
      let raw: string;
      if (spec.name === 'eligibleForBenefits') {
        if (typeof value !== 'boolean') { problems.push(sendRecordsText.recordProblem(at, c.mustBeTrueFalse)); continue; }
        raw = String(value);
      } else if (spec.input === 'number') {
        if (typeof value !== 'number' && typeof value !== 'string') { problems.push(sendRecordsText.recordProblem(at, c.mustBeNumber)); continue; }
        raw = String(value);
      } else {
        if (typeof value !== 'string') { problems.push(sendRecordsText.recordProblem(at, c.mustBeText)); continue; }
        raw = value;
      }
      const checked = checkCell(spec, raw);
      if ('problem' in checked) problems.push(sendRecordsText.recordProblem(at, checked.problem));
      else row[spec.name] = spec.input === 'text' ? raw : checked.value;
    }
    rows.push(row);
  });
  return problems.length ? { rows: [], problems } : { rows, problems: [] };
}
