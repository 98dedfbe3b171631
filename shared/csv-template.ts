/** The CSV template of docs/service-decisions.md §2: header checks and cell typing, shared by server and uploader. */
import { CSV_COLUMNS, FILE_TYPES, REQUIRED_COLUMNS, UNSAFE_FILE_NAME_CLASS, fileTypeOfKind } from './files.schema';
import type { RecordKind } from './records.schema';
import { MAYBE_THOUSANDS_RE, RECORD_KINDS, isExactNumeral } from './records.schema';

const NUMBER_COLUMNS = new Set(['periodsPerYear', 'grossAnnualSalary', 'salaryPerPeriod', 'standardHours', 'hourlyRate', 'amount']);
const BOOLEAN_COLUMNS = new Set(['eligibleForBenefits']);
const MONEY_COLUMNS = new Set(['grossAnnualSalary', 'salaryPerPeriod', 'hourlyRate', 'amount']);
const NUMBER_RE = /^[+-]?\d+(\.\d+)?$/;

/** The delimiter, taken from the header line: `;` when it has more semicolons than commas. */
export function detectDelimiter(headerLine: string): ',' | ';' {
  const count = (ch: string) => headerLine.split(ch).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** Header names as matched: trimmed, and a leading BOM dropped. */
export function normalizeHeader(header: readonly string[]): string[] {
  return header.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim());
}

/**
 * A header line's cells are quoted back in messages that reach logs, notes beside refused files, the journal,
 * notifications and the service's import reason, so only what can be a column name is quoted: a first line that names
 * no column is most often a data row (an export without its header row), whose cells are a person's name, SSN and pay,
 * and is counted, never quoted; in a real header a cell is quoted at most HEADER_CELL_SHOWN characters long, and one
 * that looks like an SSN or holds line breaks or invisible characters is named by its position only.
 */
const HEADER_CELL_SHOWN = 40;
const SSN_LIKE_RE = /\d{3}[-\s.]?\d{2}[-\s.]?\d{4}/;
const UNSAFE_CELL_RE = new RegExp(`[${UNSAFE_FILE_NAME_CLASS}]`, 'u');
const TEMPLATE_NAMES = RECORD_KINDS.map((k) => FILE_TYPES[fileTypeOfKind(k)].name).join(' or ');

/** A column name as compared to tell a header from a data row: case, spaces, `_`, `-` and `.` do not count ("Last Name"). */
const looseName = (name: string) => name.toLowerCase().replace(/[\s_.-]/g, '');
const LOOSE_COLUMN_NAMES = new Set(RECORD_KINDS.flatMap((k) => CSV_COLUMNS[k].map(looseName)));

/** A CR that ends no CRLF: a file whose lines end with CR alone (a CRLF inside a quoted cell is no such thing). */
export const LONE_CR_RE = /\r(?!\n)/;
export const LONE_CR_REASON = "the file's lines end with a CR alone (as some older programs write them), so the whole file reads as one "
  + 'line: save it again with Windows (CRLF) or Unix (LF) line ends, for example as "CSV UTF-8" from a spreadsheet';

/**
 * The whole-file problem of a first line that is no header row: one that holds a lone CR (a file whose lines end with
 * CR alone reads as one line, the whole file, its data cells included), or one none of whose cells names a column of
 * any template, even loosely (most often the first data row of an export without one; a file separated by tabs reads
 * as one cell). Said without the line's cells. Undefined for a line that names a column.
 */
export function notAHeaderRow(header: readonly string[]): string | undefined {
  if (header.some((h) => LONE_CR_RE.test(h))) return LONE_CR_REASON;
  if (header.some((h) => LOOSE_COLUMN_NAMES.has(looseName(h)))) return undefined;
  const start = "the first line is not the template's header row";
  if (header.length === 1 && header[0]!.includes('\t')) {
    return `${start}: its columns are separated by tabs, and the template separates them with commas or semicolons; `
      + 'save the file as CSV (comma-separated), for example as "CSV UTF-8" from a spreadsheet';
  }
  if (header.length === 1) {
    return `${start}: it is a single cell that names no column of the ${TEMPLATE_NAMES} template (the template separates its columns with commas or semicolons)`;
  }
  return `${start}: none of its ${header.length} cells names a column of the ${TEMPLATE_NAMES} template (was the file exported without its header row?); export the file again with its header row`;
}

/** A header cell that is no column of the template, as a message names it (see HEADER_CELL_SHOWN). */
function unknownColumnWords(cell: string, index: number): string {
  if (cell === '') return '(empty name)';
  if (SSN_LIKE_RE.test(cell)) return `column ${index + 1} (not shown: it looks like a social security number)`;
  if (UNSAFE_CELL_RE.test(cell)) return `column ${index + 1} (not shown: it holds a line break or an invisible character)`;
  const chars = [...cell];
  return chars.length > HEADER_CELL_SHOWN ? `${chars.slice(0, HEADER_CELL_SHOWN).join('')}…` : cell;
}

/**
 * Whole-file problems of a header for a kind: not a header row at all (notAHeaderRow), else missing required columns,
 * unknown columns (each named once) and repeated columns of the template.
 */
export function headerProblems(kind: RecordKind, header: readonly string[]): string[] {
  const notHeader = notAHeaderRow(header);
  if (notHeader !== undefined) return [notHeader];
  const known = new Set<string>(CSV_COLUMNS[kind]);
  const problems: string[] = [];
  const missing = REQUIRED_COLUMNS[kind].filter((c) => !header.includes(c));
  if (missing.length) problems.push(`missing required column(s): ${missing.join(', ')}`);
  const unknown = header.flatMap((h, i) => (known.has(h) || header.indexOf(h) !== i ? [] : [unknownColumnWords(h, i)]));
  if (unknown.length) problems.push(`unknown column(s): ${unknown.join(', ')}`);
  // Only the template's own names: an unknown one is already named above, once.
  const repeated = header.filter((h, i) => known.has(h) && header.indexOf(h) !== i);
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
 * words by what it breaks as written (`must have at most 2 decimals`); so does money that may be written with a point
 * between thousands (`1.500`: 1.5 or 1500, see MAYBE_THOUSANDS_RE).
 */
export function cellValue(column: string, raw: string): unknown {
  const cell = raw.trim();
  if (cell === '') return undefined;
  if (MONEY_COLUMNS.has(column) && MAYBE_THOUSANDS_RE.test(cell)) return cell;
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
