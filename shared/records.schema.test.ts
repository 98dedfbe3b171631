import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRealDate, isReferenceDate } from './dates';
import { censusBatchSchema, censusRecordSchema, hasAtMostTwoDecimals, isExactNumeral, receiptRecordSchema } from './records.schema';
import { formatIssues } from './validation';

const census = (over: Record<string, unknown> = {}) => ({
  lastName: 'Doe', firstName: 'Jane', employeeRegistration: 'E-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE', ...over,
});
const receipt = (over: Record<string, unknown> = {}) => ({
  lastName: 'Doe', firstName: 'Jane', ssn: '123-45-6789', employeeRegistration: 'E-1', paymentDate: '2026-03-31', amount: 10.5, ...over,
});
const messages = (schema: typeof censusRecordSchema | typeof receiptRecordSchema, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : formatIssues(r.error);
};

describe('calendar dates', () => {
  it.each([['2026-02-28', true], ['2024-02-29', true], ['2026-02-29', false], ['2026-02-30', false], ['2026-13-01', false], ['2026-00-10', false],
    ['2026-04-31', false], ['2026-1-05', false], ['26-01-05', false], ['2026-01-05T00:00:00Z', false], ['', false], ['1900-02-29', false], ['2000-02-29', true]])(
    '%s is a real date: %s', (value, real) => expect(isRealDate(value)).toBe(real));

  it('agrees with JavaScript\'s Date on each day of years 0000-0120 and 1891-2109 and of every seventh year up to 9999, and refuses malformed text', () => {
    const byDate = (value: string) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!m) return false;
      const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const d = new Date(Date.UTC(year, month - 1, day));
      return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
    };
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    let real = 0;
    const disagreements: string[] = [];
    for (let year = 0; year <= 9999; year += year < 120 || (year > 1890 && year < 2110) ? 1 : 7) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const value = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          const expected = byDate(value);
          if (isRealDate(value) !== expected) disagreements.push(value);
          if (expected) real++;
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(real).toBeGreaterThan(100_000);
    for (const value of ['2026-01-0a', '2026/01/05', '2026-01-05\n', ' 2026-01-05', '２０２６-01-05', '+026-01-05', '2026-1--05', '20260-1-05']) {
      expect(isRealDate(value), value).toBe(false);
    }
  });

  it('reference dates are exactly YYYY-MM-DDT00:00:00Z for a real date', () => {
    expect(isReferenceDate('2026-03-31T00:00:00Z')).toBe(true);
    expect(isReferenceDate('2026-03-31T00:00:00.000Z')).toBe(false);
    expect(isReferenceDate('2026-03-31T01:00:00Z')).toBe(false);
    expect(isReferenceDate('2026-02-30T00:00:00Z')).toBe(false);
  });
});

describe('census record', () => {
  it('accepts the minimum and trims strings', () => {
    expect(censusRecordSchema.parse(census({ lastName: '  Doe  ' }))).toMatchObject({ lastName: 'Doe' });
  });

  it.each(['lastName', 'firstName', 'employeeRegistration', 'hireDate', 'employeeStatus'])('requires %s, also when null', (field) => {
    expect(messages(censusRecordSchema, census({ [field]: undefined }))).toEqual([`${field}: is required`]);
    expect(messages(censusRecordSchema, census({ [field]: null }))).toEqual([`${field}: is required`]);
  });

  it('treats null as absent for optional fields', () => {
    const parsed = censusRecordSchema.parse(census({ payCycle: null, hourlyRate: null, eligibleForBenefits: null }));
    expect('payCycle' in parsed).toBe(false);
    expect('hourlyRate' in parsed).toBe(false);
  });

  it('names unknown fields', () => {
    expect(messages(censusRecordSchema, census({ hiredate: '2026-01-01', extra: 1 }))).toEqual(['unknown field(s): hiredate, extra']);
  });

  it.each([
    [{ employeeStatus: 'active' }, 'employeeStatus: must be one of ACTIVE, ON_LEAVE, TERMINATED'],
    [{ payCycle: 'DAILY' }, 'payCycle: must be one of WEEKLY, BIWEEKLY, SEMIMONTHLY, MONTHLY'],
    [{ timeType: 'CASUAL' }, 'timeType: must be one of FULL_TIME, PART_TIME'],
    [{ periodsPerYear: 0 }, 'periodsPerYear: must be 1 to 366'],
    [{ periodsPerYear: 367 }, 'periodsPerYear: must be 1 to 366'],
    [{ periodsPerYear: 12.5 }, 'periodsPerYear: must be a whole number'],
    [{ grossAnnualSalary: -1 }, 'grossAnnualSalary: must be 0 or more'],
    [{ salaryPerPeriod: 1.005 }, 'salaryPerPeriod: must have at most 2 decimals'],
    [{ hourlyRate: '25.00' }, 'hourlyRate: must be a number'],
    [{ hourlyRate: Infinity }, 'hourlyRate: must be a number'],
    [{ standardHours: 168.5 }, 'standardHours: must be 0 to 168'],
    [{ eligibleForBenefits: 'true' }, 'eligibleForBenefits: must be true or false'],
    [{ lastName: '   ' }, 'lastName: must not be empty'],
    [{ lastName: 'x'.repeat(101) }, 'lastName: must be at most 100 characters'],
    [{ employeeRegistration: 'E'.repeat(31) }, 'employeeRegistration: must be at most 30 characters'],
    [{ hireDate: '2026-02-30' }, 'hireDate: must be a real calendar date YYYY-MM-DD'],
    [{ hireDate: 20260105 }, 'hireDate: must be a date YYYY-MM-DD'],
  ])('refuses %j', (over, message) => {
    expect(messages(censusRecordSchema, census(over))).toEqual([message]);
  });

  it('takes the edges of the ranges', () => {
    expect(censusRecordSchema.safeParse(census({ periodsPerYear: 366, standardHours: 168, grossAnnualSalary: 0, lastName: 'x'.repeat(100), employeeRegistration: 'E'.repeat(30) })).success).toBe(true);
  });

  it('refuses an empty batch and a non-array, and names the record of each problem', () => {
    expect(formatIssues(censusBatchSchema.safeParse([]).error!)).toEqual(['the array must hold at least one record']);
    expect(formatIssues(censusBatchSchema.safeParse({}).error!)).toEqual(['the body must be a JSON array of records']);
    expect(formatIssues(censusBatchSchema.safeParse([census(), census({ hireDate: 'x' }), 'text']).error!)).toEqual([
      '[1].hireDate: must be a real calendar date YYYY-MM-DD', '[2]: must be an object',
    ]);
  });
});

describe('receipt record', () => {
  it('requires all six fields', () => {
    expect(messages(receiptRecordSchema, {})).toHaveLength(6);
  });

  it.each([['123-45-6789', true], ['123456789', false], ['12-345-6789', false], ['123-45-67890', false], ['abc-de-fghi', false], [' 123-45-6789 ', true], ['123-45- 6789', false]])(
    'ssn %s is valid: %s', (ssn, valid) => expect(receiptRecordSchema.safeParse(receipt({ ssn })).success).toBe(valid));

  it('trims the ssn, as every other string', () => {
    expect(receiptRecordSchema.parse(receipt({ ssn: '123-45-6789 ' })).ssn).toBe('123-45-6789');
  });

  it.each([[0, false], [-1, false], [0.01, true], [10.1, true], [10.123, false], [1e21, false], [999_999_999_999.99, true], [1_000_000_000_000, false], [1e-7, false]])(
    'amount %s is valid: %s', (amount, valid) => expect(receiptRecordSchema.safeParse(receipt({ amount })).success).toBe(valid));

  it('checks decimals exactly, not by float rounding', () => {
    expect([0.1, 0.29, 1.15, 4.35, 1234567.89].every(hasAtMostTwoDecimals)).toBe(true);
    expect([1.005, 0.001, 2.675000001].some(hasAtMostTwoDecimals)).toBe(false);
  });

  it('agrees with the written form of the number on cents, near-cents and arbitrary numbers', () => {
    const byText = (v: number) => Number.isInteger(v) || /^-?\d+\.\d{1,2}$/.test(String(v));
    const cents = fc.tuple(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.constantFrom(1, 10, 100, 1000, 1e15))
      .map(([n, d]) => n / d);
    const nudged = cents.map((v) => v + Number.EPSILON * Math.max(1, Math.abs(v)) * 4);
    fc.assert(fc.property(fc.oneof(cents, nudged, fc.double({ noNaN: true, noDefaultInfinity: true })), (v) => {
      expect(hasAtMostTwoDecimals(v), String(v)).toBe(byText(v));
    }), { numRuns: 50_000 });
  });
});

describe('numerals that cannot be held exactly', () => {
  it.each(['0', '-0', '0.1', '1e2', '12.30', '12.340000', '999999999999.99', '1E-7', '2.5e+3', '0.30000000000000004', '9007199254740992',
    '5e-324', '1.7976931348623157e308', '0.00000000000001', '100000000000000000000', '+5', '5.', '.5', '0000000000000012.5', '1'.repeat(15)])(
    '%s is exact', (text) => expect(isExactNumeral(text)).toBe(true));

  it.each(['12.3400000000000000001', '999999999999.9900001', '12.0000000000000001', '9007199254740993', '12345678901234567890', '1e400', '-1e400',
    '1e-400', '4.9e-324', '1.7976931348623159e308', '', '.', '-', 'abc', ' 1', '1 ', '0x10', 'Infinity', 'NaN', '1e', '1,5', '1_000'])(
    '%j is not', (text) => expect(isExactNumeral(text)).toBe(false));

  it('agrees with an exact comparison of the numeral and the shortest form of its number, as big integers', () => {
    /** The numeral's value as an integer numerator and a power of ten. */
    const exact = (text: string) => {
      const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
      const digits = BigInt(`${m[1] === '-' ? '-' : ''}${m[2] ?? ''}${m[3] ?? ''}` || '0');
      return { digits, power: Number(m[4] ?? 0) - (m[3] ?? '').length };
    };
    const same = (a: string, b: string) => {
      const x = exact(a);
      const y = exact(b);
      const power = Math.min(x.power, y.power);
      return x.digits * 10n ** BigInt(x.power - power) === y.digits * 10n ** BigInt(y.power - power);
    };
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const numeral = fc.tuple(fc.constantFrom('', '-'), digits(1, 22), fc.option(digits(0, 22)), fc.option(fc.integer({ min: -340, max: 330 })))
      .map(([sign, whole, fraction, exponent]) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `e${exponent}`}`);
    const shortest = fc.double({ noNaN: true, noDefaultInfinity: true }).map(String);
    let exactSeen = 0;
    fc.assert(fc.property(fc.oneof(numeral, shortest), (text) => {
      const value = Number(text);
      const expected = Number.isFinite(value) && same(text, String(value));
      if (expected) exactSeen++;
      expect(isExactNumeral(text), text).toBe(expected);
    }), { numRuns: 20_000 });
    expect(exactSeen).toBeGreaterThan(5_000);
  });

  // The wording a CSV cell gets: a numeral that cannot be read exactly stays text, and the field's rule names what
  // it breaks as written.
  it.each([
    [{ grossAnnualSalary: '12.3400000000000000001' }, 'grossAnnualSalary: must have at most 2 decimals'],
    [{ salaryPerPeriod: '999999999999.9900001' }, 'salaryPerPeriod: must have at most 2 decimals'],
    [{ hourlyRate: '12345678901234567.5' }, 'hourlyRate: must be at most 999,999,999,999.99'],
    [{ hourlyRate: '-12345678901234567' }, 'hourlyRate: must be 0 or more'],
    [{ periodsPerYear: '12.0000000000000001' }, 'periodsPerYear: must be a whole number'],
    [{ periodsPerYear: '12345678901234567890' }, 'periodsPerYear: must be 1 to 366'],
    [{ standardHours: '40.000000000000000001' }, 'standardHours: must be written with at most 15 significant digits (a longer number cannot be held exactly)'],
    [{ standardHours: '1000000000000000000001' }, 'standardHours: must be 0 to 168'],
    [{ grossAnnualSalary: '12.34' }, 'grossAnnualSalary: must be a number'],
    [{ periodsPerYear: 'x' }, 'periodsPerYear: must be a whole number'],
  ])('a census %j is refused: %s', (over, message) => {
    expect(messages(censusRecordSchema, census(over))).toEqual([message]);
  });

  it.each([
    ['0.01000000000000000001', 'amount: must have at most 2 decimals'],
    ['-12345678901234567', 'amount: must be more than 0'],
    ['12345678901234567', 'amount: must be at most 999,999,999,999.99'],
  ])('a receipt amount %s is refused: %s', (amount, message) => {
    expect(messages(receiptRecordSchema, receipt({ amount }))).toEqual([message]);
  });
});
