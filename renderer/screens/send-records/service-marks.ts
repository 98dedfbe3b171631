/**
 * What the service's 400/422 answer said about the records of a refused batch, kept beside the form rather than in
 * react-hook-form's errors. Those errors are the form's own check: react-hook-form replaces them with the resolver's
 * answer whenever it checks again (every row once a row is added or removed, after a failed send), and the resolver
 * knows nothing of the service, so a mark put there was wiped from rows the clerk had not touched.
 *
 * A mark stays on its row until the clerk edits it (a field's mark goes with an edit of that field, a whole record's
 * with an edit of any field of its row), the row is removed, or the form is sent again or started over. Marks are kept
 * by the records' places in the refused batch, with where each of those records is in the form now (`rows`), so a
 * removed row takes its marks with it and the rows after it keep theirs; the names in a mark ("is also given for
 * Person 1") are the rows' names of now. A mark naming a record that is no longer in the form goes: what it said
 * (this registration repeats that one's) no longer holds.
 */
import type { RecordKind } from '../../../shared';
import { FIELDS } from './record-fields';
import { bareMessage, fieldMessage, serviceRecordProblem, withRecordNames } from './problem-words';

/** One problem the service gave for record `record` of the batch, in its own words (`[n]` names other records). */
type Mark = { record: number; field?: string; message: string };

export type ServiceMarks = {
  /** Where each record of the refused batch is in the form now: its row index, or null once removed. */
  rows: (number | null)[];
  marks: Mark[];
};

export const NO_MARKS: ServiceMarks = { rows: [], marks: [] };

/** The marks of a batch of `count` records refused with these problems (each naming one of those records). */
export function serviceMarks(problems: { index: number; field?: string; message: string }[], count: number): ServiceMarks {
  return {
    rows: Array.from({ length: count }, (_, i) => i),
    marks: problems.map((p) => ({ record: p.index, ...(p.field ? { field: p.field } : {}), message: p.message })),
  };
}

/** A mark in the clerk's words, with the field it is shown on; undefined when it names a record that was removed. */
function inWords(kind: RecordKind, marks: ServiceMarks, mark: Mark, rowName: (n: number) => string): { field?: string; message: string } | undefined {
  let gone = false;
  // `n` counts from 1, as the rows are named; a record beyond the batch keeps the number the service gave it.
  const nameNow = (n: number) => {
    const row = n - 1 < marks.rows.length ? marks.rows[n - 1] : n - 1;
    if (row === null || row === undefined) gone = true;
    return rowName((row ?? 0) + 1);
  };
  const words = mark.field
    ? { field: mark.field, message: withRecordNames(bareMessage(mark.field, mark.message), nameNow) }
    : serviceRecordProblem(mark.message, nameNow);
  if (gone) return undefined;
  // A field the form does not show is named in the record's problems instead.
  if (words.field && !FIELDS[kind].some((f) => f.name === words.field)) return { message: fieldMessage(kind, words.field, words.message) };
  return words;
}

export type ShownMarks = {
  /** By row index of the form now: the marks shown under fields, by field name. */
  fields: Record<number, Record<string, string>>;
  /** By row index of the form now: the marks about a whole record. */
  records: Record<number, string[]>;
  /** The first marked field, in the service's order. */
  first?: { row: number; field: string };
};

/** The marks as the form shows them now. `rowName` names a row ("Person 2") from its number, counted from 1. */
export function shownMarks(kind: RecordKind, marks: ServiceMarks, rowName: (n: number) => string): ShownMarks {
  const shown: ShownMarks = { fields: {}, records: {} };
  for (const mark of marks.marks) {
    const row = marks.rows[mark.record];
    const words = row === null || row === undefined ? undefined : inWords(kind, marks, mark, rowName);
    if (row === null || row === undefined || !words) continue;
    if (words.field) {
      const fields = (shown.fields[row] ??= {});
      // One message per field: the first the service gave.
      fields[words.field] ??= words.message;
      shown.first ??= { row, field: words.field };
    } else {
      (shown.records[row] ??= []).push(words.message);
    }
  }
  return shown;
}

/**
 * The marks once the rows have moved: `to` gives a row's new index, or null for a row that is gone (removed, or a
 * blank row that gave way to added ones).
 */
export function movedMarks(marks: ServiceMarks, to: (row: number) => number | null): ServiceMarks {
  if (marks.marks.length === 0) return marks;
  return { ...marks, rows: marks.rows.map((row) => (row === null ? null : to(row))) };
}

/** The marks once the clerk has edited `field` of row `row`: that field's mark goes, and so do its record's. */
export function editedMarks(kind: RecordKind, marks: ServiceMarks, row: number, field: string): ServiceMarks {
  const kept = marks.marks.filter((mark) => {
    if (marks.rows[mark.record] !== row) return true;
    const shownOn = inWords(kind, marks, mark, String)?.field;
    return shownOn !== undefined && shownOn !== field;
  });
  return kept.length === marks.marks.length ? marks : { ...marks, marks: kept };
}
