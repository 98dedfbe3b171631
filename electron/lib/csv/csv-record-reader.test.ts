import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../../shared';
import { censusRow, csvText, receiptRow, writeCsv } from '../../../test/helpers/csv-fixtures';
import { tempDir } from '../../../test/helpers/local-server';
import type { CsvReadOptions, CsvReadResult, CsvReadSuccess, CsvRecord } from './csv-record-reader';
import { NOT_UTF8_REASON, readCsvFile, readCsvRecords } from './csv-record-reader';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('csv-reader-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function read(content: string | Buffer, options: CsvReadOptions = {}): Promise<CsvReadResult> {
  return readCsvFile(await writeCsv(dir, 'file.csv', content), options);
}

function ok(result: CsvReadResult): CsvReadSuccess {
  if (!result.ok) throw new Error(`expected a readable file, got: ${result.reason}`);
  return result;
}

function reason(result: CsvReadResult): string {
  if (result.ok) throw new Error('expected a whole-file problem');
  return result.reason;
}

const RECEIPT_HEADER = CSV_COLUMNS.receipt.join(',');

describe('readCsvRecords: layout', () => {
  it('reads a census file, detecting its kind, and hands each accepted record with its line', async () => {
    const seen: [CsvRecord, number][] = [];
    const result = ok(await read(csvText('census', [censusRow(1), censusRow(2)]), { onRecord: (r, line) => seen.push([r, line]) }));
    expect(result).toMatchObject({ kind: 'census', delimiter: ',', rows: 2, accepted: 2, rejected: 0, errors: [] });
    expect(seen.map(([r, line]) => [r.employeeRegistration, line])).toEqual([['E000001', 2], ['E000002', 3]]);
    expect(seen[0]?.[0]).toMatchObject({ eligibleForBenefits: true, periodsPerYear: 12, grossAnnualSalary: 54000.5 });
  });

  it('drops a BOM, takes ; from the header line, and reads CRLF line ends', async () => {
    const text = csvText('receipt', [receiptRow(1), receiptRow(2, { amount: 10 })], { bom: true, delimiter: ';', eol: '\r\n' });
    const result = ok(await read(text));
    expect(result).toMatchObject({ kind: 'receipt', delimiter: ';', rows: 2, accepted: 2 });
    expect(result.header[0]).toBe('lastName');
  });

  it('skips blank lines before the header, and still takes the delimiter from the header line', async () => {
    const result = ok(await read(`\n  \n${csvText('receipt', [receiptRow(1, { ssn: 'bad' })], { delimiter: ';' })}`));
    expect(result).toMatchObject({ delimiter: ';', rows: 1, rejected: 1 });
    expect(result.errors[0]?.line).toBe(4);
  });

  it('keeps quoted commas and newlines in a cell and counts the physical lines they span', async () => {
    const text = `${RECEIPT_HEADER}\n"Doe, Jr.","Ann\nMarie",123-45-6789,E1,2026-01-31,10\n\nDoe,Bob,123-45-6789,E2,2026-02-30,10\n`;
    const records: CsvRecord[] = [];
    const result = ok(await read(text, { onRecord: (r) => records.push(r) }));
    expect(records[0]).toMatchObject({ lastName: 'Doe, Jr.', firstName: 'Ann\nMarie' });
    // The quoted newline makes the first row lines 2-3; line 4 is blank; the bad row is line 5.
    expect(result.errors).toEqual([{ line: 5, field: 'paymentDate', message: 'paymentDate must be a real calendar date YYYY-MM-DD' }]);
  });

  it('accepts a file without a final line end and skips blank lines and rows of empty cells', async () => {
    const text = `${RECEIPT_HEADER}\n\n,,,,,\nDoe,Bob,123-45-6789,E2,2026-02-03,10`;
    expect(ok(await read(text))).toMatchObject({ rows: 1, accepted: 1 });
  });

  it('reads from any async iterable of chunks, split anywhere, even inside a multi-byte character', async () => {
    const bytes = Buffer.from(csvText('census', [censusRow(1, { lastName: 'Müller-Łukasz' }), censusRow(2)]));
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    const names: unknown[] = [];
    const result = ok(await readCsvRecords(Readable.from(chunks), { onRecord: (r) => names.push(r.lastName) }));
    expect(result.accepted).toBe(2);
    expect(names[0]).toBe('Müller-Łukasz');
  });
});

describe('readCsvRecords: row errors', () => {
  it('reports a 2026-02-30 date, with its line and field, and still accepts the other rows', async () => {
    const result = ok(await read(csvText('census', [censusRow(1), censusRow(2, { hireDate: '2026-02-30' }), censusRow(3)])));
    expect(result).toMatchObject({ rows: 3, accepted: 2, rejected: 1 });
    expect(result.errors).toEqual([{ line: 3, field: 'hireDate', message: 'hireDate must be a real calendar date YYYY-MM-DD' }]);
  });

  it('reports every problem of a row, and rows with too many or too few cells', async () => {
    const text = `${RECEIPT_HEADER}\nDoe,,12345,E1,2026-01-31,-1\nDoe,Bob,123-45-6789,E2,2026-01-31,10,extra\nDoe,Bob\n`;
    const result = ok(await read(text));
    expect(result).toMatchObject({ rows: 3, accepted: 0, rejected: 3 });
    expect(result.errors.filter((e) => e.line === 2).map((e) => e.field)).toEqual(['firstName', 'ssn', 'amount']);
    expect(result.errors.filter((e) => e.line !== 2)).toEqual([
      { line: 3, message: 'the row has 7 cells but the header has 6 columns' },
      { line: 4, message: 'the row has 2 cells but the header has 6 columns' },
    ]);
  });

  it('keeps at most maxErrors errors but counts every rejected row', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => receiptRow(i, { ssn: 'x' }));
    const result = ok(await read(csvText('receipt', rows), { maxErrors: 2 }));
    expect(result).toMatchObject({ rejected: 5, omittedErrors: 3 });
    expect(result.errors.map((e) => e.line)).toEqual([2, 3]);
  });

  it('keeps a stray quote inside an unquoted cell as a character', async () => {
    const records: CsvRecord[] = [];
    ok(await read(`${RECEIPT_HEADER}\nO"Neil,Bob,123-45-6789,E2,2026-01-31,10\n`, { onRecord: (r) => records.push(r) }));
    expect(records[0]?.lastName).toBe('O"Neil');
  });
});

describe('readCsvRecords: whole-file problems', () => {
  it.each([
    ['an empty file', ''],
    ['a file of only a BOM', '\uFEFF'],
    ['a file of blank lines', '\n\r\n\n'],
  ])('refuses %s', async (_name, content) => {
    expect(reason(await read(content))).toBe('the file is empty: it has no header row');
  });

  it('refuses a header without data rows', async () => {
    expect(reason(await read(`${RECEIPT_HEADER}\r\n`))).toBe('the file has a header but no data rows');
  });

  it('refuses bytes that are not UTF-8, wherever they are', async () => {
    const good = Buffer.from(csvText('receipt', [receiptRow(1)]));
    expect(reason(await read(Buffer.concat([good, Buffer.from([0x44, 0xe9, 0x2c, 0x0a])])))).toBe(NOT_UTF8_REASON);
    expect(reason(await read(Buffer.concat([good, Buffer.from([0xc3])])))).toBe(NOT_UTF8_REASON);
  });

  it('refuses a missing required column and an unknown column, naming them', async () => {
    const header = CSV_COLUMNS.census.filter((c) => c !== 'hireDate').map((c) => (c === 'payCycle' ? 'paycycle' : c));
    const text = csvText('census', [censusRow(1)], { columns: header });
    expect(reason(await read(text, { kind: 'census' }))).toBe(
      'the header does not fit the Census template: missing required column(s): hireDate; unknown column(s): paycycle',
    );
  });

  it('refuses a header of another template when the kind is given, and one that fits none', async () => {
    const receipt = csvText('receipt', [receiptRow(1)]);
    expect(reason(await read(receipt, { kind: 'census' }))).toMatch(/^the header does not fit the Census template: .*unknown column\(s\): ssn, paymentDate, amount/);
    expect(reason(await read('name,amount\nBob,1\n'))).toMatch(/^the header fits no file template \(Census: missing required column/);
  });

  it('refuses an export without its header row without quoting the first row, whether the kind is given or told', async () => {
    const headerless = 'Doe,Jane,123-45-6789,E-1001,2026-03-31,150.00\nRoe,Rick,987-65-4321,E-1002,2026-03-31,90.00\n';
    const said = "the first line is not the template's header row: none of its 6 cells names a column of the Census or Receipt template (was the file exported without its header row?); export the file again with its header row";
    expect(await read(headerless)).toEqual({ ok: false, reason: said, bytes: headerless.length });
    expect(await read(headerless, { kind: 'receipt' })).toEqual({ ok: false, reason: said, kind: 'receipt', bytes: headerless.length });
    expect(reason(await read(headerless.replaceAll(',', ';'), { headerOnly: true }))).toBe(said);
  });

  it('refuses lines that end with a CR alone, and a file separated by tabs, naming what to save it as and quoting no data', async () => {
    const crOnly = csvText('receipt', [receiptRow(1), receiptRow(2)]).replaceAll('\n', '\r');
    expect(reason(await read(crOnly))).toMatch(/^the file's lines end with a CR alone .*: save it again with Windows \(CRLF\) or Unix \(LF\) line ends/);
    const tabs = csvText('receipt', [receiptRow(1)]).replaceAll(',', '\t');
    expect(reason(await read(tabs))).toMatch(/^the first line is not the template's header row: its columns are separated by tabs/);
    for (const text of [crOnly, tabs]) expect(reason(await read(text))).not.toMatch(/\d{3}-\d{2}-\d{4}/);
    // Over 1 MB, one line is longer than a record may be: still said as lines that end with a CR alone.
    const big = csvText('receipt', Array.from({ length: 25_000 }, (_, i) => receiptRow(i))).replaceAll('\n', '\r');
    expect(big.length).toBeGreaterThan(1024 * 1024);
    expect(reason(await read(big))).toMatch(/^the file's lines end with a CR alone/);
    // A line break inside a quoted header cell of a CRLF file is no CR alone.
    const quoted = csvText('receipt', [receiptRow(1)], { eol: '\r\n' }).replace(',amount\r\n', ',"amo\r\nunt"\r\n');
    expect(quoted).toContain('"amo\r\nunt"');
    expect(reason(await read(quoted))).not.toMatch(/CR alone/);
  });

  it('refuses a quoted field that is never closed, naming the line the record starts on', async () => {
    const text = `${RECEIPT_HEADER}\nDoe,Bob,123-45-6789,E2,2026-01-31,10\n"Doe,Bob,123-45-6789,E3,2026-01-31,10\n`;
    expect(reason(await read(text))).toBe('a quoted field in the record starting at line 3 is never closed');
  });

  it('refuses a file over maxBytes', async () => {
    expect(reason(await read(csvText('receipt', [receiptRow(1)]), { maxBytes: 10 }))).toBe('the file is larger than 10 bytes');
  });
});

describe('readCsvRecords: headerOnly', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => receiptRow(i + 1));
  /** Small chunks, so parsing has stopped long before the last bytes arrive. */
  const chunked = (bytes: Buffer) => Readable.from(Array.from({ length: Math.ceil(bytes.length / 64) }, (_, i) => bytes.subarray(i * 64, i * 64 + 64)));

  it('parses the header and one data row only, yet reads every byte', async () => {
    const seen: number[] = [];
    const text = csvText('receipt', many(50));
    const result = ok(await readCsvRecords(chunked(Buffer.from(text)), { headerOnly: true, onRecord: (_r, line) => seen.push(line) }));
    expect(result).toMatchObject({ kind: 'receipt', rows: 1, accepted: 1, bytes: Buffer.byteLength(text) });
    expect(seen).toEqual([2]);
  });

  it('leaves row problems and a quote never closed after the first data row unseen', async () => {
    const text = `${csvText('receipt', many(3))}Doe,Bob,bad-ssn,E9,2026-02-30,10\n"Doe,Bob,123-45-6789,E3,2026-01-31,10\n`;
    expect(reason(await read(text))).toMatch(/never closed/);
    expect(ok(await read(text, { headerOnly: true }))).toMatchObject({ rows: 1, rejected: 0 });
  });

  it('still refuses what is wrong with the whole file: bytes that are not UTF-8 at the very end, size, header, no rows', async () => {
    const good = Buffer.from(csvText('receipt', many(20)));
    const latin1 = Buffer.concat([good, Buffer.from([0x44, 0xe9, 0x2c, 0x0a])]);
    expect(reason(await readCsvRecords(chunked(latin1), { headerOnly: true }))).toBe(NOT_UTF8_REASON);
    const cut = Buffer.concat([good, Buffer.from([0xc3])]);
    expect(reason(await readCsvRecords(chunked(cut), { headerOnly: true }))).toBe(NOT_UTF8_REASON);
    expect(reason(await readCsvRecords(chunked(good), { headerOnly: true, maxBytes: good.length - 1 })))
      .toBe(`the file is larger than ${good.length - 1} bytes`);
    expect(reason(await read(`${RECEIPT_HEADER}\r\n\n`, { headerOnly: true }))).toBe('the file has a header but no data rows');
    expect(reason(await read('name,amount\nBob,1\n', { headerOnly: true }))).toMatch(/^the header fits no file template/);
  });

  it('still refuses a quote never closed in the first data row', async () => {
    const text = `${RECEIPT_HEADER}\n"Doe,Bob,123-45-6789,E3,2026-01-31,10\nDoe,Bob,123-45-6789,E4,2026-01-31,10\n`;
    expect(reason(await read(text, { headerOnly: true }))).toBe('a quoted field in the record starting at line 2 is never closed');
  });
});

it('passes on a failure of the onRecord callback', async () => {
  const failing = () => {
    throw new Error('disk full');
  };
  await expect(read(csvText('receipt', [receiptRow(1)]), { onRecord: failing })).rejects.toThrow('disk full');
});
