import { describe, expect, it } from 'vitest';
import { recordOfRow } from './record-fields';
import { rowsOfPaste, splitTabSeparated } from './spreadsheet-paste';

describe('splitTabSeparated', () => {
  it('splits rows and cells, skips blank lines, and keeps quoted tabs, line breaks and quotes', () => {
    expect(splitTabSeparated('a\tb\r\n\r\n"x\ty"\t"say ""hi""\nthere"\n')).toEqual([
      ['a', 'b'],
      ['x\ty', 'say "hi"\nthere'],
    ]);
  });
  it('keeps a quote inside an unquoted cell as it is', () => {
    expect(splitTabSeparated('5" pipe\tb')).toEqual([['5" pipe', 'b']]);
  });
});

describe('rowsOfPaste', () => {
  it('reads receipts without a header in the template order', () => {
    const { rows, problems } = rowsOfPaste('receipt', 'Smith\tAnna\t123-45-6789\tE-1\t2026-03-15\t125.50\nLee\tBo\t987-65-4321\tE-2\t03/16/2026\t80');
    expect(problems).toEqual([]);
    expect(rows.map((r) => recordOfRow('receipt', r))).toEqual([
      { lastName: 'Smith', firstName: 'Anna', ssn: '123-45-6789', employeeRegistration: 'E-1', paymentDate: '2026-03-15', amount: 125.5 },
      { lastName: 'Lee', firstName: 'Bo', ssn: '987-65-4321', employeeRegistration: 'E-2', paymentDate: '2026-03-16', amount: 80 },
    ]);
  });

  it('reads a header row of labels or field names in any order', () => {
    const { rows, problems } = rowsOfPaste('census', 'Employee status\tlastName\tHire Date\tfirst name\temployeeRegistration\nactive\tSmith\t2026-01-05\tAnna\tE-1');
    expect(problems).toEqual([]);
    expect(recordOfRow('census', rows[0]!)).toEqual({
      lastName: 'Smith', firstName: 'Anna', employeeRegistration: 'E-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE',
    });
  });

  it('refuses a header with unknown columns, naming them', () => {
    expect(rowsOfPaste('receipt', 'Last name\tFirst name\tBonus\nSmith\tAnna\t5').problems).toEqual([
      'The first row looks like a header, but these columns are not known: Bonus',
    ]);
  });

  it('refuses cells a date input or a select could not hold, naming row and column, and adds nothing', () => {
    const result = rowsOfPaste('census', 'Smith\tAnna\tE-1\t15.03.2026\tFired\nLee\tBo\tE-2\t2026-02-30\tActive');
    expect(result.rows).toEqual([]);
    expect(result.problems).toEqual([
      'Row 1, Hire date: "15.03.2026" is not a date; write it as YYYY-MM-DD (2026-03-15) or MM/DD/YYYY (03/15/2026)',
      'Row 1, Employee status: "Fired" is not one of Active, On leave, Terminated',
      'Row 2, Hire date: "2026-02-30" is not a date; write it as YYYY-MM-DD (2026-03-15) or MM/DD/YYYY (03/15/2026)',
    ]);
  });

  it('refuses a row with more cells than columns', () => {
    expect(rowsOfPaste('receipt', 'a\tb\tc\td\t2026-01-01\t1\textra').problems).toEqual(['Row 1 has 7 cells, but there are only 6 columns']);
  });

  it('says when nothing was pasted', () => {
    expect(rowsOfPaste('receipt', '\n\t\n').problems).toEqual(['No rows were found in the pasted text.']);
  });
});
