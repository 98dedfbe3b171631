/**
 * Rows copied from a spreadsheet (tab-separated, as every spreadsheet puts them on the clipboard) into form rows.
 * A first row that names known columns (field names or labels) is a header and columns may come in any order;
 * without one, the columns are in the CSV template's order.
 */
import type { RecordKind } from '../../../shared';
import { checkCell, columnDateReading, fieldOfHeader, isSlashDate, localeDateOrder, type DateOrder } from './cell-values';
import type { FieldSpec, FormRow } from './record-fields';
import { FIELDS, emptyRow } from './record-fields';
import { sendRecordsText } from './send-records-text';

const c = sendRecordsText.check;

/** Splits clipboard text into rows of cells; a cell in double quotes may hold tabs, line breaks and "" for a quote. */
export function splitTabSeparated(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  const endCell = () => { row.push(cell); cell = ''; };
  const endRow = () => { endCell(); rows.push(row); row = []; };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"' && cell === '') {
      const close = findClosingQuote(text, i + 1);
      if (close !== -1) {
        cell = text.slice(i + 1, close).replace(/""/g, '"');
        i = close + 1;
        continue;
      }
    }
    if (ch === '\t') endCell();
    else if (ch === '\n' || ch === '\r') {
      endRow();
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
    } else cell += ch;
    i += 1;
  }
  if (cell !== '' || row.length > 0) endRow();
  return rows.filter((cells) => cells.some((v) => v.trim() !== ''));
}

/** The index of the quote closing a quoted cell (followed by a tab, a line break or the end), or -1. */
function findClosingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    if (text[i] !== '"') continue;
    if (text[i + 1] === '"') { i += 1; continue; }
    const next = text[i + 1];
    return next === undefined || next === '\t' || next === '\n' || next === '\r' ? i : -1;
  }
  return -1;
}

/** Clipboard text again from rows of cells: the inverse of `splitTabSeparated`, quoting the cells that need it. */
export function joinTabSeparated(rows: string[][]): string {
  const cell = (v: string) => (/[\t\n\r]/.test(v) || v.startsWith('"') ? `"${v.replace(/"/g, '""')}"` : v);
  return rows.map((cells) => cells.map(cell).join('\t')).join('\n');
}

/** A first row that names known columns (at least half of its filled cells) is a header. */
function isHeaderRow(specs: readonly FieldSpec[], first: string[]): boolean {
  const filled = first.filter((cell) => cell.trim() !== '');
  const hits = first.filter((cell) => fieldOfHeader(specs, cell)).length;
  return hits > 0 && hits * 2 >= filled.length;
}

/** How many rows of records `text` holds as a paste would read it (its header row, if any, aside). */
export function pastedRowCount(kind: RecordKind, text: string): number {
  const lines = splitTabSeparated(text);
  return lines.length > 0 && isHeaderRow(FIELDS[kind], lines[0]!) ? lines.length - 1 : lines.length;
}

export type PasteResult = {
  /** The rows the form can take. */
  rows: FormRow[];
  /** Why the other rows (or the whole paste) cannot be taken, each naming its row and column. */
  problems: string[];
  /**
   * What was not taken, as clipboard text, to be corrected and added again: the refused rows under the header row
   * (when there was one), or the whole paste when its header is wrong; '' when everything was taken.
   */
  left: string;
  /** How dates that could be read two ways were read, by row (of `rows`) and field, to be shown on those fields. */
  notes: CellNote[];
};

/** A note for the clerk about how a cell was read: row `row` of the rows taken, field `field`. */
export type CellNote = { row: number; field: string; note: string };

/**
 * The good rows are taken and the bad ones are left, so a bad cell never costs the clerk the rest of the paste and
 * the bad rows themselves are not lost either.
 */
export function rowsOfPaste(kind: RecordKind, text: string, dateOrder: DateOrder = localeDateOrder()): PasteResult {
  const specs = FIELDS[kind];
  const lines = splitTabSeparated(text);
  if (lines.length === 0) return { rows: [], problems: [c.noRows], left: '', notes: [] };
  const refused = (problem: string): PasteResult => ({ rows: [], problems: [problem], left: text, notes: [] });

  const first = lines[0]!;
  const named = first.map((cell) => fieldOfHeader(specs, cell));
  let columns: (FieldSpec | undefined)[] = [...specs];
  let body = lines;
  let firstLine = 1;
  if (isHeaderRow(specs, first)) {
    const unknown = first.filter((cell, i) => cell.trim() !== '' && !named[i]);
    if (unknown.length) return refused(c.unknownColumns(unknown));
    const names = named.filter((s): s is FieldSpec => s !== undefined).map((s) => s.label);
    const repeated = names.filter((n, i) => names.indexOf(n) !== i);
    if (repeated.length) return refused(c.repeatedColumns([...new Set(repeated)]));
    columns = named;
    body = lines.slice(1);
    firstLine = 2;
    if (body.length === 0) return refused(c.noRows);
  }

  // Each date column is read one way: the way its dates with a part above 12 show, within this paste.
  const readings = columns.map((spec, i) => (spec?.input === 'date' ? columnDateReading(body.map((cells) => cells[i] ?? ''), dateOrder) : undefined));

  const rows: FormRow[] = [];
  const problems: string[] = [];
  const left: string[][] = [];
  const notes: CellNote[] = [];
  body.forEach((cells, n) => {
    const where = c.row(n + firstLine);
    const used = cells.length - [...cells].reverse().findIndex((v) => v.trim() !== '');
    if (used > columns.length) {
      problems.push(`${where} ${c.tooManyCells(used, columns.length)}`);
      left.push(cells);
      return;
    }
    const row = emptyRow(kind);
    const rowNotes: CellNote[] = [];
    let bad = false;
    cells.forEach((raw, i) => {
      const spec = columns[i];
      if (!spec) return;
      const reading = readings[i];
      const checked = reading && 'problem' in reading
        ? (isSlashDate(raw) ? { problem: reading.problem(raw.trim()) } : checkCell(spec, raw))
        : checkCell(spec, raw, reading);
      if ('problem' in checked) {
        problems.push(sendRecordsText.recordProblem(`${where}, ${spec.label}`, checked.problem));
        bad = true;
        return;
      }
      row[spec.name] = checked.value;
      if (checked.note) rowNotes.push({ row: rows.length, field: spec.name, note: checked.note });
    });
    if (bad) left.push(cells);
    else {
      rows.push(row);
      notes.push(...rowNotes);
    }
  });
  const header = firstLine === 2 ? [first] : [];
  return { rows, problems, left: left.length ? joinTabSeparated([...header, ...left]) : '', notes };
}
