/** CSV files for tests and benchmarks: valid census/receipt rows in the template, written or streamed. */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CSV_COLUMNS } from '../../shared';
import type { RecordKind } from '../../shared';

export type CsvRow = Record<string, string | number | boolean>;

/** A valid census row; `i` makes the registration unique (`E000001`). */
export function censusRow(i: number, over: Partial<CsvRow> = {}): CsvRow {
  return {
    lastName: `Doe${i}`, firstName: 'Jane', employeeRegistration: `E${String(i).padStart(6, '0')}`,
    hireDate: '2020-01-15', employeeStatus: 'ACTIVE', eligibleForBenefits: true, payCycle: 'MONTHLY',
    periodsPerYear: 12, grossAnnualSalary: 54000.5, salaryPerPeriod: 4500.04, standardHours: 40, hourlyRate: 25.96,
    timeType: 'FULL_TIME', payrollGroup: 'G1', payrollArea: 'North', personnelSubArea: 'Plant 7',
    ...over,
  };
}

/** A valid receipt row for the census row `i`. */
export function receiptRow(i: number, over: Partial<CsvRow> = {}): CsvRow {
  return {
    lastName: `Doe${i}`, firstName: 'Jane', ssn: '123-45-6789', employeeRegistration: `E${String(i).padStart(6, '0')}`,
    paymentDate: '2026-01-31', amount: 150.25,
    ...over,
  };
}

export type CsvLayout = { delimiter?: ',' | ';'; eol?: '\n' | '\r\n'; bom?: boolean; columns?: readonly string[] };

function cell(value: string | number | boolean | undefined, delimiter: string): string {
  if (value === undefined) return '';
  const text = String(value);
  return /["\r\n]/.test(text) || text.includes(delimiter) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text of rows in a kind's template (columns in template order unless given). */
export function csvText(kind: RecordKind, rows: readonly CsvRow[], layout: CsvLayout = {}): string {
  const { delimiter = ',', eol = '\n', bom = false } = layout;
  const columns = layout.columns ?? CSV_COLUMNS[kind];
  const lines = [columns.join(delimiter), ...rows.map((r) => columns.map((c) => cell(r[c], delimiter)).join(delimiter))];
  return `${bom ? '\uFEFF' : ''}${lines.join(eol)}${eol}`;
}

export const md5 = (data: Buffer | string) => createHash('md5').update(data).digest('hex');

/** Writes a file in `dir` and returns its path. */
export async function writeCsv(dir: string, name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

/** Census CSV text, generated in chunks of rows until at least `bytes` (for large streams). */
export function* censusChunks(bytes: number, rowsPerChunk = 2000): Generator<Buffer> {
  let written = 0;
  let i = 0;
  const header = Buffer.from(`${CSV_COLUMNS.census.join(',')}\n`);
  written += header.length;
  yield header;
  while (written < bytes) {
    const rows: CsvRow[] = [];
    for (let k = 0; k < rowsPerChunk; k++) rows.push(censusRow(i++));
    const text = csvText('census', rows);
    const chunk = Buffer.from(text.slice(text.indexOf('\n') + 1));
    written += chunk.length;
    yield chunk;
  }
}
