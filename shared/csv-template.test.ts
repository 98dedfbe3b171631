import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from './files.schema';
import { headerProblems, kindOfHeader, notAHeaderRow } from './csv-template';

/** The first data row of a receipt export without its header row: a person's name, SSN, registration and pay. */
const DATA_ROW = ['Doe', 'Jane', '123-45-6789', 'E-1001', '2026-03-31', '150.00'];
const PERSONAL = /Doe|Jane|123-45-6789|E-1001|150\.00/;

describe('a first line that is a data row', () => {
  it('is said to be no header row, counted and never quoted, for either template', () => {
    const said = "the first line is not the template's header row: none of its 6 cells names a column of the Census or Receipt template (was the file exported without its header row?); export the file again with its header row";
    expect(notAHeaderRow(DATA_ROW)).toBe(said);
    expect(headerProblems('receipt', DATA_ROW)).toEqual([said]);
    expect(headerProblems('census', DATA_ROW)).toEqual([said]);
    expect(kindOfHeader(DATA_ROW)).toBeUndefined();
  });

  it('says a single cell is no header row either, with the separators the template uses', () => {
    expect(headerProblems('receipt', ['Doe Jane 123-45-6789'])).toEqual([
      "the first line is not the template's header row: it is a single cell that names no column of the Census or Receipt template (the template separates its columns with commas or semicolons)",
    ]);
  });

  it('says a header separated by tabs is, and what to save it as', () => {
    const tabs = [CSV_COLUMNS.receipt.join('\t')];
    expect(headerProblems('receipt', tabs)).toEqual([
      "the first line is not the template's header row: its columns are separated by tabs, and the template separates them with commas or semicolons; save the file as CSV (comma-separated), for example as \"CSV UTF-8\" from a spreadsheet",
    ]);
  });

  it('says lines that end with a CR alone are, never quoting the data they run into', () => {
    // Read with LF and CRLF as line ends, such a file is one line: the header's last cell runs into the first row.
    const oneLine = [...CSV_COLUMNS.receipt.slice(0, -1), `amount\r${DATA_ROW[0]}`, ...DATA_ROW.slice(1)];
    const said = headerProblems('receipt', oneLine);
    expect(said).toEqual([
      "the file's lines end with a CR alone (as some older programs write them), so the whole file reads as one line: save it again with Windows (CRLF) or Unix (LF) line ends, for example as \"CSV UTF-8\" from a spreadsheet",
    ]);
    expect(said.join(' ')).not.toMatch(PERSONAL);
  });

  it('takes a header of labels written loosely for a header, naming what does not fit', () => {
    const labels = ['Last Name', 'first_name', 'SSN', 'employee-registration', 'Payment Date', 'AMOUNT'];
    expect(notAHeaderRow(labels)).toBeUndefined();
    expect(headerProblems('receipt', labels).join('; ')).toContain('unknown column(s): Last Name, first_name, SSN, employee-registration, Payment Date, AMOUNT');
  });
});

describe('unknown columns of a header', () => {
  const receipt = [...CSV_COLUMNS.receipt];

  it('are named, each once, so a misspelling can be fixed', () => {
    expect(headerProblems('receipt', [...receipt, 'bonus', 'bonus'])).toEqual(['unknown column(s): bonus']);
    expect(headerProblems('receipt', [...receipt, 'amount'])).toEqual(['repeated column(s): amount']);
  });

  it('never quote a cell that looks like an SSN, in any usual writing, nor one with a line break or an invisible character', () => {
    for (const ssn of ['123-45-6789', '123456789', '123 45 6789', 'Jane 123-45-6789']) {
      const problems = headerProblems('receipt', [...receipt, 'x', ssn, ssn]).join('; ');
      expect(problems).toBe('unknown column(s): x, column 8 (not shown: it looks like a social security number)');
    }
    expect(headerProblems('receipt', [...receipt, 'Doe\nWARN forged'])).toEqual(['unknown column(s): column 7 (not shown: it holds a line break or an invisible character)']);
    expect(headerProblems('receipt', [...receipt, 'Doe\u202eenaJ']).join()).not.toContain('\u202e');
  });

  it('cut a long cell at 40 characters', () => {
    const long = `note${'x'.repeat(5000)}`;
    expect(headerProblems('receipt', [...receipt, long])).toEqual([`unknown column(s): ${long.slice(0, 40)}…`]);
  });

  it('never bring the cells of a data row into a header that names a column', () => {
    // A header cut short with a data row after it on the same line: the column names are named, the SSN is not.
    const problems = headerProblems('receipt', ['lastName', 'firstName', ...DATA_ROW.slice(2)]).join('; ');
    expect(problems).not.toMatch(/123-45-6789/);
    expect(problems).toContain('column 3 (not shown: it looks like a social security number)');
  });
});

it('no message of a data row read as a header quotes its cells', () => {
  for (const kind of ['census', 'receipt'] as const) expect(headerProblems(kind, DATA_ROW).join()).not.toMatch(PERSONAL);
});
