/** The CSV template of docs/service-decisions.md §2: header checks and cell typing, shared by server and uploader. */
import { CSV_COLUMNS, REQUIRED_COLUMNS } from './files.schema';
import type { RecordKind } from './records.schema';
import { RECORD_KINDS, isExactNumeral } from './records.schema';

const NUMBER_COLUMNS = new Set(['periodsPerYear', 'grossAnnualSalary', 'salaryPerPeriod', 'standardHours', 'hourlyRate', 'amount']);
const BOOLEAN_COLUMNS = new Set(['eligibleForBenefits']);
const MONEY_COLUMNS = new Set(['grossAnnualSalary', 'salaryPerPeriod', 'hourlyRate', 'amount']);
const NUMBER_RE = /^[+-]?\d+(\.\d+)?$/;
/** A money cell written with three or more decimals: `1.500` may be one and a half or, with a thousands point, 1500. */
const MONEY_OVER_CENTS_RE = /\.\d{3,}$/;

/** The delimiter, taken from the header line: `;` when it has more semicolons than commas. */
export function detectDelimiter(headerLine: string): ',' | ';' {
  const count = (ch: string) => headerLine.split(ch).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** Header names as matched: trimmed, and a leading BOM dropped. */
export function normalizeHeader(header: readonly string[]): string[] {
  return header.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim());
}

/** Whole-file problems of a header for a kind: missing required columns, unknown or repeated columns. */
export function headerProblems(kind: RecordKind, header: readonly string[]): string[] {
  const known = new Set<string>(CSV_COLUMNS[kind]);
  const problems: string[] = [];
  const missing = REQUIRED_COLUMNS[kind].filter((c) => !header.includes(c));
  if (missing.length) problems.push(`missing required column(s): ${missing.join(', ')}`);
  const unknown = header.filter((h) => !known.has(h));
  if (unknown.length) problems.push(`unknown column(s): ${unknown.map((u) => (u === '' ? '(empty name)' : u)).join(', ')}`);
  const repeated = header.filter((h, i) => h !== '' && header.indexOf(h) !== i);
  if (repeated.length) problems.push(`repeated column(s): ${[...new Set(repeated)].join(', ')}`);
  return problems;
}

/** The kind whose template a header matches, if exactly one does. */
export function kindOfHeader(header: readonly string[]): RecordKind | undefined {
  const fits = RECORD_KINDS.filter((k) => headerProblems(k, header).length === 0);
  return fits.length === 1 ? fits[0] : undefined;
}

/** Whether a cell (trimmed) is written as the template writes numbers: digits, an optional sign and decimal point. */
export const isNumberCell = (cell: string) => NUMBER_RE.test(cell);

/**
 * A cell as the record field's value: empty is absent; numbers use `.`; booleans are true/false. A number that
 * cannot be read exactly (`12.3400000000000000001` would be read as 12.34) stays text, which the field's rule
 * words by what it breaks as written (`must have at most 2 decimals`); so does money written with more than two
 * decimals, zeros too: `1.500` is not read as 1.5, since an export or a clerk that writes a point between
 * thousands means 1500 by it.
 */
export function cellValue(column: string, raw: string): unknown {
  const cell = raw.trim();
  if (cell === '') return undefined;
  if (MONEY_COLUMNS.has(column) && MONEY_OVER_CENTS_RE.test(cell) && isNumberCell(cell)) return cell;
  // At most 15 characters of NUMBER_RE are always read exactly, so the common cell costs no further check.
  if (NUMBER_COLUMNS.has(column)) return isNumberCell(cell) && (cell.length <= 15 || isExactNumeral(cell)) ? Number(cell) : cell;
  if (BOOLEAN_COLUMNS.has(column)) return cell === 'true' ? true : cell === 'false' ? false : cell;
  return raw;
}

/** The record of one CSV row (cells beyond the header are reported by the caller). */
export function rowToRecord(header: readonly string[], cells: readonly string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  header.forEach((column, i) => {
    const value = cellValue(column, cells[i] ?? '');
    if (value !== undefined) record[column] = value;
  });
  return record;
}
