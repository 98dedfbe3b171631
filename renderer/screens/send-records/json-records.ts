/**
 * A JSON array of records (a file or pasted text) into form rows, refusing what the form could not show faithfully:
 * the JSON is checked with the shared record schema, as the service checks it, and a value the form cannot hold as
 * given (a number in quotes, a day-first date, a choice in words) is named rather than rewritten.
 */
import type { RecordKind } from '../../../shared';
import { LIMITS, cellValue, inexactNumberProblem, isRealDate, recordSchemas } from '../../../shared';
import { unrealDate } from './cell-values';
import type { FieldSpec, FormRow } from './record-fields';
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

/** The first message the record schema has for each field of `record`: what the service would answer. */
function schemaIssues(kind: RecordKind, record: Record<string, unknown>): Map<string, string> {
  const parsed = recordSchemas[kind].safeParse(record);
  const byField = new Map<string, string>();
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !byField.has(field)) byField.set(field, issue.message);
  }
  return byField;
}

/** The JSON type a field's value has: the service reads nothing else there (no number in quotes). */
const jsonTypeOf = (spec: FieldSpec) => (spec.input === 'number' ? 'number' : spec.name === 'eligibleForBenefits' ? 'boolean' : 'string');

/**
 * The text the form holds for a JSON value, when its input can show it and the form sends that very value back
 * (`recordOfRow` reads the text by the CSV template's cell rules); undefined when it cannot: a value of another
 * type, a date the date input cannot hold, a choice not in the list, an empty text (the form would send no value).
 */
function formTextOf(spec: FieldSpec, value: unknown): string | undefined {
  if (typeof value !== jsonTypeOf(spec)) return undefined;
  const text = String(value);
  if (cellValue(spec.name, text) !== value) return undefined;
  if (spec.input === 'date' && !isRealDate(text)) return undefined;
  if (spec.input === 'select' && !spec.options?.some((o) => o.value === text)) return undefined;
  return text;
}

/** Why a JSON value the form cannot hold is refused, in the JSON's own terms; else the schema's words. */
function jsonProblem(spec: FieldSpec, value: unknown, schemaMessage: string | undefined): string {
  const j = c.json;
  const type = jsonTypeOf(spec);
  if (type === 'string' && typeof value !== 'string') {
    if (spec.input === 'date') return j.dateInQuotes;
    if (spec.input === 'select') return j.choiceInQuotes(spec.options?.map((o) => o.value) ?? []);
    return c.mustBeText;
  }
  if (type !== 'string' && typeof value === 'string') return j.quoted(type === 'number' ? j.aNumber : j.trueOrFalse, value);
  if (spec.input === 'date' && typeof value === 'string') {
    const why = unrealDate(value);
    return why ? c.noSuchDate(value, why) : j.notADate(value);
  }
  if (spec.input === 'select' && typeof value === 'string') return c.notAChoice(value, spec.options?.map((o) => o.value) ?? []);
  return schemaMessage ?? (type === 'boolean' ? c.mustBeTrueFalse : type === 'number' ? j.notShown : c.mustBeText);
}

export function rowsOfJson(kind: RecordKind, text: string): JsonRowsResult {
  if (new TextEncoder().encode(text).length > LIMITS.jsonBodyBytes) return { rows: [], problems: [c.tooBig] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { rows: [], problems: [c.notJson((error as Error).message)] };
  }
  // JSON.parse has rounded 12.3400000000000000001 to 12.34: the form would show and send 12.34, a number the service
  // refuses as written (400). Said in the service's words, naming the record and field by their place in the JSON.
  const inexact = inexactNumberProblem(text);
  if (inexact) return { rows: [], problems: [c.inexactNumber(inexact)] };
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
    // Checked as the service checks it: the record schema's issues, by field, name what it would refuse.
    const issues = schemaIssues(kind, record);
    const row = emptyRow(kind);
    for (const spec of specs) {
      const value = record[spec.name];
      if (value === undefined || value === null) continue;
      const text = formTextOf(spec, value);
      // What the form holds as given goes in, even if a rule refuses it (a salary over the most, a 31-character
      // registration): the form's check, the same schema, marks it there. What it cannot hold is refused here, since
      // the form would show and send something else (a date turned around, a text read as a number).
      if (text !== undefined) row[spec.name] = text;
      else problems.push(sendRecordsText.recordProblem(`${where}, ${spec.label}`, jsonProblem(spec, value, issues.get(spec.name))));
    }
    rows.push(row);
  });
  return problems.length ? { rows: [], problems } : { rows, problems: [] };
}
