import { describe, expect, it } from 'vitest';
import { recordOfRow } from './record-fields';
import { joinTabSeparated, rowsOfPaste, splitTabSeparated } from './spreadsheet-paste';

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

describe('joinTabSeparated', () => {
  it('gives back cells that splitTabSeparated reads the same', () => {
    const rows = [['a', 'x\ty', 'say "hi"\nthere'], ['"quoted"', '5" pipe', '']];
    expect(splitTabSeparated(joinTabSeparated(rows))).toEqual(rows);
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

  it('takes the good rows and leaves the bad ones, named by row and column, to be corrected', () => {
    const result = rowsOfPaste('census', 'Smith\tAnna\tE-1\t15.03.2026\tFired\nLee\tBo\tE-2\t2026-02-30\tActive\nKim\tJo\tE-3\t2026-02-28\tActive');
    expect(result.rows.map((r) => recordOfRow('census', r))).toEqual([
      { lastName: 'Kim', firstName: 'Jo', employeeRegistration: 'E-3', hireDate: '2026-02-28', employeeStatus: 'ACTIVE' },
    ]);
    expect(result.problems).toEqual([
      'Row 1, Hire date: "15.03.2026" is not a date; write it as YYYY-MM-DD (2026-03-15) or MM/DD/YYYY (03/15/2026)',
      'Row 1, Employee status: "Fired" is not one of Active, On leave, Terminated',
      'Row 2, Hire date: "2026-02-30" is not a real date: February 2026 has 28 days',
    ]);
    // The bad rows, exactly as pasted, to be put back in the box.
    expect(result.left).toBe('Smith\tAnna\tE-1\t15.03.2026\tFired\nLee\tBo\tE-2\t2026-02-30\tActive');
  });

  it('leaves the header row with the bad rows, so the columns still mean the same when they are added again', () => {
    const result = rowsOfPaste('receipt', 'Amount\tLast name\tFirst name\tSSN\tEmployee registration\tPayment date\n'
      + '10\tSmith\tAnna\t123-45-6789\tE-1\t2026-03-15\n20\tLee\t"Bo\tJr"\t987-65-4321\tE-2\t04/31/2026\n');
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]?.lastName).toBe('Smith');
    expect(result.problems).toEqual(['Row 3, Payment date: "04/31/2026" is not a real date: April 2026 has 30 days']);
    expect(result.left).toBe('Amount\tLast name\tFirst name\tSSN\tEmployee registration\tPayment date\n20\tLee\t"Bo\tJr"\t987-65-4321\tE-2\t04/31/2026');
    expect(splitTabSeparated(result.left)[1]?.[2]).toBe('Bo\tJr');
  });

  it('says why an impossible date is not a date', () => {
    const hireDate = (cell: string) => rowsOfPaste('census', `Hire date\n${cell}`).problems;
    expect(hireDate('2026-13-01')).toEqual(['Row 2, Hire date: "2026-13-01" is not a real date: there is no month 13']);
    expect(hireDate('31/04/2026')).toEqual(['Row 2, Hire date: "31/04/2026" is not a real date: there is no month 31 (with slashes, the month comes first: MM/DD/YYYY)']);
    expect(hireDate('2028-02-30')).toEqual(['Row 2, Hire date: "2028-02-30" is not a real date: February 2028 has 29 days']);
    expect(hireDate('2026-01-00')).toEqual(['Row 2, Hire date: "2026-01-00" is not a real date: there is no day 0']);
  });

  it('takes nothing and leaves the whole paste when the header row is wrong', () => {
    const text = 'Last name\tFirst name\tBonus\nSmith\tAnna\t5';
    expect(rowsOfPaste('receipt', text)).toEqual({ rows: [], problems: ['The first row looks like a header, but these columns are not known: Bonus'], left: text });
  });

  it('refuses a row with more cells than columns', () => {
    const result = rowsOfPaste('receipt', 'a\tb\tc\td\t2026-01-01\t1\textra');
    expect(result.problems).toEqual(['Row 1 has 7 cells, but there are only 6 columns']);
    expect(result.left).toBe('a\tb\tc\td\t2026-01-01\t1\textra');
  });

  it('says when nothing was pasted', () => {
    expect(rowsOfPaste('receipt', '\n\t\n').problems).toEqual(['No rows were found in the pasted text.']);
  });
});
