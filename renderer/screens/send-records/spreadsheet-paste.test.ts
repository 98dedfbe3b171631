import { describe, expect, it } from 'vitest';
import { localeDateOrder } from './cell-values';
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
      'Row 1, Hire date: "15.03.2026" is not a date; write it as YYYY-MM-DD (2026-03-15) or with slashes (15/03/2026 or 03/15/2026)',
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
    expect(hireDate('31/04/2026')).toEqual(['Row 2, Hire date: "31/04/2026" is not a real date: April 2026 has 30 days']);
    expect(hireDate('2028-02-30')).toEqual(['Row 2, Hire date: "2028-02-30" is not a real date: February 2028 has 29 days']);
    expect(hireDate('2026-01-00')).toEqual(['Row 2, Hire date: "2026-01-00" is not a real date: there is no day 0']);
  });

  it('takes nothing and leaves the whole paste when the header row is wrong', () => {
    const text = 'Last name\tFirst name\tBonus\nSmith\tAnna\t5';
    expect(rowsOfPaste('receipt', text)).toEqual({ rows: [], problems: ['The first row looks like a header, but these columns are not known: Bonus'], left: text, notes: [] });
  });

  it('refuses a row with more cells than columns', () => {
    const result = rowsOfPaste('receipt', 'a\tb\tc\td\t2026-01-01\t1\textra');
    expect(result.problems).toEqual(['Row 1 has 7 cells, but there are only 6 columns']);
    expect(result.left).toBe('a\tb\tc\td\t2026-01-01\t1\textra');
  });

  it('says when nothing was pasted', () => {
    expect(rowsOfPaste('receipt', '\n\t\n').problems).toEqual(['No rows were found in the pasted text.']);
  });

  it('joins the lines of a cell with a line break with a space, as a one-line field cannot hold the break', () => {
    const { rows } = rowsOfPaste('receipt', '"Lee\nKim"\t"Bo\r\n Jr"\t123-45-6789\tE-1\t2026-03-15\t10');
    expect([rows[0]?.lastName, rows[0]?.firstName]).toEqual(['Lee Kim', 'Bo Jr']);
  });
});

describe('rowsOfPaste: dates with slashes, day first or month first', () => {
  const hireDates = (result: ReturnType<typeof rowsOfPaste>) => result.rows.map((r) => r.hireDate);

  it('reads a column day first when one of its dates shows it, whatever the browser, and notes how it read the others', () => {
    // The clerk's browser writes month first: the column itself says otherwise, and it wins.
    const result = rowsOfPaste('census', 'Hire date\n05/03/2026\n31/03/2026\n07/07/2026', 'month-first');
    expect(result.problems).toEqual([]);
    expect(hireDates(result)).toEqual(['2026-03-05', '2026-03-31', '2026-07-07']);
    // Only the date that could be read two ways has a note; 31/03 and 07/07 read one way only.
    expect(result.notes).toEqual([{
      row: 0, field: 'hireDate',
      note: '"05/03/2026" was read as 5 March 2026 (day first, as 31/03/2026 in the same column shows). If it is 3 May 2026, correct the date.',
    }]);
  });

  it('reads a column month first when one of its dates shows it, whatever the browser', () => {
    const result = rowsOfPaste('census', 'Hire date\n05/03/2026\n03/31/2026', 'day-first');
    expect(hireDates(result)).toEqual(['2026-05-03', '2026-03-31']);
    expect(result.notes.map((n) => n.note)).toEqual([
      '"05/03/2026" was read as 3 May 2026 (month first, as 03/31/2026 in the same column shows). If it is 5 March 2026, correct the date.',
    ]);
  });

  it('without such a date, reads it the way the browser writes dates, and says so', () => {
    const dayFirst = rowsOfPaste('census', 'Hire date\n05/03/2026', 'day-first');
    expect(hireDates(dayFirst)).toEqual(['2026-03-05']);
    expect(dayFirst.notes[0]?.note).toBe('"05/03/2026" was read as 5 March 2026 (day first, the way this browser writes dates). If it is 3 May 2026, correct the date.');
    const monthFirst = rowsOfPaste('census', 'Hire date\n05/03/2026', 'month-first');
    expect(hireDates(monthFirst)).toEqual(['2026-05-03']);
    expect(monthFirst.notes[0]?.note).toBe('"05/03/2026" was read as 3 May 2026 (month first, the way this browser writes dates). If it is 5 March 2026, correct the date.');
  });

  it('notes rows by their place among the rows taken, and each date column is read on its own evidence', () => {
    const result = rowsOfPaste('receipt', 'Payment date\tLast name\tFirst name\tSSN\tEmployee registration\tAmount\n'
      + '32/01/2026\tBad\tRow\t123-45-6789\tE-0\t1\n04/02/2026\tLee\tBo\t123-45-6789\tE-1\t10\n13/02/2026\tKim\tJo\t123-45-6789\tE-2\t10', 'month-first');
    expect(result.problems).toEqual(['Row 2, Payment date: "32/01/2026" is not a real date: January 2026 has 31 days']);
    expect(result.rows.map((r) => r.paymentDate)).toEqual(['2026-02-04', '2026-02-13']);
    expect(result.notes).toEqual([{ row: 0, field: 'paymentDate', note: expect.stringContaining('"04/02/2026" was read as 4 February 2026 (day first, as 13/02/2026') as unknown }]);
  });

  it('refuses the dates with slashes of a column that shows both orders, saying why, and keeps them in the box', () => {
    const text = 'Last name\tHire date\nSmith\t31/03/2026\nLee\t03/31/2026\nKim\t2026-01-05\nPark\t05/03/2026';
    const result = rowsOfPaste('census', text, 'day-first');
    expect(result.rows.map((r) => [r.lastName, r.hireDate])).toEqual([['Kim', '2026-01-05']]);
    const why = 'this column has dates with the day first (31/03/2026) and with the month first (03/31/2026), so which is which cannot be told. '
      + 'Write all its dates one way, or as YYYY-MM-DD (2026-03-15), then add the rows again';
    expect(result.problems).toEqual([
      `Row 2, Hire date: "31/03/2026" was not read: ${why}`,
      `Row 3, Hire date: "03/31/2026" was not read: ${why}`,
      `Row 5, Hire date: "05/03/2026" was not read: ${why}`,
    ]);
    expect(result.left).toBe('Last name\tHire date\nSmith\t31/03/2026\nLee\t03/31/2026\nPark\t05/03/2026');
  });

  it('knows which browsers write the day first', () => {
    expect(localeDateOrder('en-GB')).toBe('day-first');
    expect(localeDateOrder('fr-FR')).toBe('day-first');
    expect(localeDateOrder('en-US')).toBe('month-first');
    expect(localeDateOrder('ja-JP')).toBe('month-first');
  });
});
