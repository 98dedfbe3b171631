/**
 * Rows copied from a spreadsheet (tab-separated, as every spreadsheet puts them on the clipboard) into form rows.
 * A first row that names known columns (field names or labels) is a header and columns may come in any order;
 * without one, the columns are in the CSV template's order.
 */
import type { RecordKind } from '../../../shared';
import { checkCell, fieldOfHeader } from './cell-values';
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

export type PasteResult = { rows: FormRow[]; problems: string[] };

export function rowsOfPaste(kind: RecordKind, text: string): PasteResult {
  const specs = FIELDS[kind];
  const lines = splitTabSeparated(text);
  if (lines.length === 0) return { rows: [], problems: [c.noRows] };

  const first = lines[0]!;
  const named = first.map((cell) => fieldOfHeader(specs, cell));
  const filled = first.filter((cell) => cell.trim() !== '');
  const hits = named.filter(Boolean).length;
  let columns: (FieldSpec | undefined)[] = [...specs];
  let body = lines;
  let firstLine = 1;
  if (hits > 0 && hits * 2 >= filled.length) {
    const unknown = first.filter((cell, i) => cell.trim() !== '' && !named[i]);
    if (unknown.length) return { rows: [], problems: [c.unknownColumns(unknown)] };
    const names = named.filter((s): s is FieldSpec => s !== undefined).map((s) => s.label);
    const repeated = names.filter((n, i) => names.indexOf(n) !== i);
    if (repeated.length) return { rows: [], problems: [c.repeatedColumns([...new Set(repeated)])] };
    columns = named;
    body = lines.slice(1);
    firstLine = 2;
    if (body.length === 0) return { rows: [], problems: [c.noRows] };
  }

  const rows: FormRow[] = [];
  const problems: string[] = [];
  body.forEach((cells, n) => {
    const where = c.row(n + firstLine);
    const used = cells.length - [...cells].reverse().findIndex((v) => v.trim() !== '');
    if (used > columns.length) {
      problems.push(`${where} ${c.tooManyCells(used, columns.length)}`);
      return;
    }
    const row = emptyRow(kind);
    cells.forEach((raw, i) => {
      const spec = columns[i];
      if (!spec) return;
      const checked = checkCell(spec, raw);
      if ('problem' in checked) problems.push(sendRecordsText.recordProblem(`${where}, ${spec.label}`, checked.problem));
      else row[spec.name] = checked.value;
    });
    rows.push(row);
  });
  return problems.length ? { rows: [], problems } : { rows, problems: [] };
}
