import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowToRecord } from './csv-template';
import { CSV_COLUMNS, REQUIRED_COLUMNS } from './files.schema';
import { quickRecordCheck, quickRowCheck } from './quick-row-check';
import type { RecordKind } from './records.schema';
import { recordSchemas } from './records.schema';

// Cells on every edge of the rules: almost valid, whitespace, signs, exponents, lengths, other columns' values.
// Keys that name Object.prototype members: a lookup by user-given key must never find them.
const PROTO_KEYS = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

// One value in twenty carries such a key, so the rest still exercises both answers often.
const protoKeyOrNot = fc.oneof({ weight: 19, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) });

const TRICKY = ['', '999999999999.99', '1000000000000', '999999999999.995', '1e15', '9007199254740993', ' ', '  x  ', 'x'.repeat(31), ' '.concat('x'.repeat(100)), 'x'.repeat(101), ' 2026-01-05', '2026-02-30',
  '2026-1-5', 'active', ' ACTIVE', ' true ', 'TRUE', '+5', '-0', '-1', '0', '367', '168.01', '1.005', '1e3', '5.', '.5',
  ' 25.25 ', '123-45-678', ' 123-45-6789', 'Infinity', 'NaN', '\t', '\u00a0x', '0.001', '12,5',
  // Numbers that cannot be read exactly: read as 12.34, 999999999999.99, 12 and 150.
  '12.3400000000000000001', '999999999999.9900001', '12.0000000000000001', '150.000000000000000001'];

// Mostly valid values per column, so that many rows pass and the property is really exercised.
const VALID: Record<string, string[]> = {
  lastName: ['Doe', ' Doe ', 'x'.repeat(100)], firstName: ['Jane', 'Ann Marie'], employeeRegistration: ['E-1', 'x'.repeat(30), ' E2 '],
  hireDate: ['2026-01-05', '2024-02-29'], employeeStatus: ['ACTIVE', 'ON_LEAVE', 'TERMINATED'], eligibleForBenefits: ['true', 'false', ''],
  payCycle: ['WEEKLY', 'BIWEEKLY', 'SEMIMONTHLY', 'MONTHLY', ''], periodsPerYear: ['1', '26', '366', ''],
  grossAnnualSalary: ['0', '52000.00', '0.29', ''], salaryPerPeriod: ['2000.5', ''], standardHours: ['0', '40', '168', '37.5', ''],
  hourlyRate: ['25.25', '0', ''], timeType: ['FULL_TIME', 'PART_TIME', ''], payrollGroup: ['G1', ''], payrollArea: ['North', ''],
  personnelSubArea: ['Plant 1', ''], ssn: ['123-45-6789'], paymentDate: ['2026-03-31'], amount: ['150.00', '0.01', '75.5'],
};

const cellFor = (column: string) =>
  fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...(Object.hasOwn(VALID, column) ? VALID[column]! : ['x'])) }, { weight: 1, arbitrary: fc.constantFrom(...TRICKY) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });

function rowFor(kind: RecordKind) {
  const optional = CSV_COLUMNS[kind].filter((c) => !(REQUIRED_COLUMNS[kind] as readonly string[]).includes(c));
  return fc
    .tuple(fc.subarray(optional), fc.boolean(), fc.boolean(), protoKeyOrNot)
    .chain(([extra, dropRequired, extraCell, protoColumn]) => {
      const columns = [...REQUIRED_COLUMNS[kind].slice(dropRequired ? 1 : 0), ...extra, ...(protoColumn ? [protoColumn] : [])];
      return fc.tuple(fc.shuffledSubarray(columns, { minLength: columns.length, maxLength: columns.length }), fc.constant(extraCell));
    })
    .chain(([columns, extraCell]) =>
      fc.record({ columns: fc.constant(columns), cells: fc.tuple(...columns.map(cellFor), ...(extraCell ? [fc.constant('x')] : [])) }));
}

describe('quick row check', () => {
  for (const kind of ['census', 'receipt'] as const) {
    it(`never accepts a ${kind} row that zod refuses, and returns exactly zod's record`, () => {
      let accepted = 0;
      let refused = 0;
      fc.assert(
        fc.property(rowFor(kind), ({ columns, cells }) => {
          const quick = quickRowCheck(kind, columns)(cells);
          const zod = recordSchemas[kind].safeParse(rowToRecord(columns, cells));
          if (quick === undefined) {
            if (!zod.success) refused++;
            return;
          }
          accepted++;
          expect(zod.success, JSON.stringify({ columns, cells })).toBe(true);
          expect(quick).toEqual(zod.data);
        }),
        { numRuns: 20_000 },
      );
      // Both sides of the property were exercised many times.
      expect(accepted).toBeGreaterThan(2_000);
      expect(refused).toBeGreaterThan(2_000);
    });
  }
});

const JSON_TRICKY: unknown[] = [999_999_999_999.99, 1_000_000_000_000, 1e15, 2 ** 53 + 2, Number.MAX_VALUE, null, undefined, '', ' ', 'x'.repeat(101), ' x ', 0, -1, 1.005, 12.5, 367, 169, true, 'true', '12', [], {}, Number.NaN,
  '2026-02-30', ' 2026-01-05', 'active', 'WEEKLY ', '123456789'];
const JSON_VALID: Record<string, unknown[]> = {
  lastName: ['Doe', ' Doe ', 'x'.repeat(100)], firstName: ['Jane'], employeeRegistration: ['E-1', ' E2 ', 'x'.repeat(30)], hireDate: ['2026-01-05'],
  employeeStatus: ['ACTIVE', 'TERMINATED'], eligibleForBenefits: [true, false, null], payCycle: ['MONTHLY', null], periodsPerYear: [12, 366, null],
  grossAnnualSalary: [52000.5, 0, 0.29], salaryPerPeriod: [2000], standardHours: [40, 168, 37.5], hourlyRate: [25.25], timeType: ['PART_TIME'],
  payrollGroup: ['G1'], payrollArea: ['North'], personnelSubArea: ['Plant 1'], ssn: ['123-45-6789'], paymentDate: ['2026-03-31'], amount: [150, 0.01],
};

function recordFor(kind: RecordKind) {
  return fc.tuple(fc.subarray([...CSV_COLUMNS[kind]]), fc.constantFrom(true, true, true, false), fc.constantFrom(false, false, false, false, false, true),
    protoKeyOrNot)
    .chain(([present, withAllRequired, withUnknown, protoKey]) => {
    const names = [...(withAllRequired ? new Set([...REQUIRED_COLUMNS[kind], ...present]) : present), ...(withUnknown ? ['unknownField'] : []),
      ...(protoKey ? [protoKey] : [])];
    return fc.record(Object.fromEntries(names.map((name) => [name,
      fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...(Object.hasOwn(JSON_VALID, name) ? JSON_VALID[name]! : ['x'])) }, { weight: 1, arbitrary: fc.constantFrom(...JSON_TRICKY) }, { weight: 1, arbitrary: fc.anything({ maxDepth: 0 }) })])));
  });
}

describe('number cells that cannot be read exactly', () => {
  const header = [...REQUIRED_COLUMNS.census, 'periodsPerYear', 'grossAnnualSalary'];
  const row = (periodsPerYear: string, grossAnnualSalary: string) => ['Doe', 'Jane', 'E-1', '2026-01-05', 'ACTIVE', periodsPerYear, grossAnnualSalary];
  const zodMessages = (cells: string[]) => {
    const parsed = recordSchemas.census.safeParse(rowToRecord(header, cells));
    return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it.each([
    [row('12', '12.3400000000000000001'), ['grossAnnualSalary: must have at most 2 decimals']],
    [row('12', '999999999999.9900001'), ['grossAnnualSalary: must have at most 2 decimals']],
    [row('12.0000000000000001', '12.34'), ['periodsPerYear: must be a whole number']],
    [row('12345678901234567890', ''), ['periodsPerYear: must be 1 to 366']],
  ])('are refused, on their text, by the quick check and by zod: %j', (cells, messages) => {
    expect(quickRowCheck('census', header)(cells)).toBeUndefined();
    expect(zodMessages(cells)).toEqual(messages);
  });

  it('as numbers read exactly, with trailing zeros or more than 15 characters, are taken', () => {
    // 12.3400 and 1500.000 cannot be a thousands group (SQL tools write money with 4 decimals), nor 0.500.
    for (const salary of ['12.3400', '1500.000', '0.500', '999999999999.990']) expect(zodMessages(row('12', salary)), salary).toEqual([]);
    const cells = row('12.000', '999999999999.99');
    expect(quickRowCheck('census', header)(cells)).toMatchObject({ periodsPerYear: 12, grossAnnualSalary: 999_999_999_999.99 });
    expect(zodMessages(cells)).toEqual([]);
  });

  // `1.500` is 1.5 to a parser and 1500 to an export that writes a point between thousands: never read as either.
  it.each([
    ['1.500', 'grossAnnualSalary: must be written with at most 2 decimals (1.500 could mean 1.5, or 1500 written with a point between thousands): write the amount you mean as a number with no thousands separator'],
    ['48.250', 'grossAnnualSalary: must be written with at most 2 decimals (48.250 could mean 48.25, or 48250 written with a point between thousands): write the amount you mean as a number with no thousands separator'],
    ['-1.500', 'grossAnnualSalary: must be 0 or more'],
    ['12.3450', 'grossAnnualSalary: must have at most 2 decimals'],
  ])('money that may hold a point between thousands, or a digit beyond the cents, is refused by both: %s', (salary, message) => {
    const cells = row('12', salary);
    expect(quickRowCheck('census', header)(cells)).toBeUndefined();
    expect(zodMessages(cells)).toEqual([message]);
  });
});

describe('quick JSON record check', () => {
  for (const kind of ['census', 'receipt'] as const) {
    it(`never accepts a ${kind} record that zod refuses, and returns exactly zod's record`, () => {
      let accepted = 0;
      let refused = 0;
      const quick = quickRecordCheck(kind);
      fc.assert(
        fc.property(recordFor(kind), (value) => {
          const mine = quick(value);
          const zod = recordSchemas[kind].safeParse(value);
          if (mine === undefined) {
            if (!zod.success) refused++;
            return;
          }
          accepted++;
          expect(zod.success, JSON.stringify(value)).toBe(true);
          expect(mine).toEqual(zod.data);
        }),
        // More runs than the row check: census records with all valid fields are rarer here.
        { numRuns: 30_000 },
      );
      expect(accepted).toBeGreaterThan(2_000);
      expect(refused).toBeGreaterThan(2_000);
    });
  }
});
