/** A JSON array of records (a file or pasted text) into form rows, refusing what the form could not show faithfully. */
import type { RecordKind } from '../../../shared';
import { LIMITS } from '../../../shared';
import { checkCell } from './cell-values';
import type { FormRow } from './record-fields';
import { FIELDS, MAX_FORM_RECORDS, emptyRow } from './record-fields';
import { sendRecordsText } from './send-records-text';

const c = sendRecordsText.check;

export type JsonRowsResult = { rows: FormRow[]; problems: string[] };

const OTHER_KIND: Record<RecordKind, RecordKind> = { census: 'receipt', receipt: 'census' };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fields that make `record` look like a record of the other kind: it has fields `kind` does not know, and every
 * one of its fields is a field of the other kind (a receipt's SSN, Payment date and Amount among census fields).
 * Undefined when it does not look like one. The fields both kinds share (names, employee registration) prove nothing.
 */
function otherKindFields(kind: RecordKind, record: Record<string, unknown>): string[] | undefined {
  const names = Object.keys(record);
  const foreign = names.filter((name) => !FIELDS[kind].some((s) => s.name === name));
  const theirs = FIELDS[OTHER_KIND[kind]];
  if (foreign.length === 0 || !names.every((name) => theirs.some((s) => s.name === name))) return undefined;
  return foreign;
}

/** Field names of the other kind as its form labels them, each once, in its form's order. */
function otherKindLabels(kind: RecordKind, names: Iterable<string>): string[] {
  const wanted = new Set(names);
  return FIELDS[OTHER_KIND[kind]].filter((s) => wanted.has(s.name)).map((s) => s.label);
}

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

  // Receipts loaded with "census" chosen (or the other way round) are not records with unknown fields: the clerk is
  // told what they look like and which choice sends them.
  const foreign = parsed.map((record: unknown) => (isRecord(record) ? otherKindFields(kind, record) : undefined));
  if (foreign.every((fields): fields is string[] => fields !== undefined)) {
    return { rows: [], problems: [c.wrongKind(kind, otherKindLabels(kind, foreign.flat()))] };
  }

  const specs = FIELDS[kind];
  const rows: FormRow[] = [];
  const problems: string[] = [];
  parsed.forEach((record: unknown, index) => {
    const where = c.record(index + 1);
    if (!isRecord(record)) {
      problems.push(`${where} ${c.notObject}`);
      return;
    }
    const theirs = foreign[index];
    if (theirs) {
      problems.push(`${where} ${c.otherKindRecord(kind, otherKindLabels(kind, theirs))}`);
      return;
    }
    const unknown = Object.keys(record).filter((key) => !specs.some((s) => s.name === key));
    if (unknown.length) problems.push(`${where} ${c.unknownFields(unknown)}`);
    const row = emptyRow(kind);
    for (const spec of specs) {
      const value = record[spec.name];
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
