/** Census and receipt records: the rules of docs/service-decisions.md §1. */
import { z } from 'zod';
import { isRealDate } from './dates';
import { LIMITS } from './limits';

/** The preprocessors made by `withoutNullsOf`: the OpenAPI document marks their schemas' fields as taking null. */
export const NULL_MEANS_ABSENT = new Set<(value: unknown) => unknown>();

/**
 * `null` is treated as absent for the record's own fields: their null-valued keys are dropped before a record is
 * checked. Any other key stays, null or not, so the strict object refuses it as an unknown field (`"toString": null`
 * is a mistake to name, not an absent field). One pass per record (not a wrapper per field), because CSV processing
 * checks up to a million records per file.
 */
function withoutNullsOf(fields: readonly string[]): (value: unknown) => unknown {
  const known = new Set(fields);
  const drop = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      if ((value as Record<string, unknown>)[key] === null && known.has(key)) {
        copy ??= { ...(value as Record<string, unknown>) };
        delete copy[key];
      }
    }
    return copy ?? value;
  };
  NULL_MEANS_ABSENT.add(drop);
  return drop;
}

const text = (max: number = LIMITS.stringMax) =>
  z.string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

const date = () =>
  z.string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a date YYYY-MM-DD') })
    .refine(isRealDate, 'must be a real calendar date YYYY-MM-DD');

/** Below this, v * 100 is off by far less than 0.5, so rounding it finds the cents exactly. */
const CENTS_EXACT_BELOW = 1e13;

/**
 * True when a number has at most two decimals as written (exactly, not by float rounding). Up to 1e13 it is the
 * number closest to a whole count of cents: the same numbers, without writing each as text (a 5 MB batch has
 * some 40,000 amounts); larger numbers are checked by their text.
 */
export function hasAtMostTwoDecimals(v: number): boolean {
  if (Number.isInteger(v)) return true;
  if (Math.abs(v) < CENTS_EXACT_BELOW) return Math.round(v * 100) / 100 === v;
  return /^-?\d+\.\d{1,2}$/.test(String(v));
}

// A decimal numeral: a JSON number literal, a CSV number cell, or what String(number) writes.
const NUMERAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
// At most 15 characters of digits, a point and a sign, no exponent: at most 15 significant digits, from 1e-13 up.
const SHORT_PLAIN_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/** A numeral's exact value: `negative`, significant `digits` without leading or trailing zeros, and the power of ten they are scaled by. */
type NumeralParts = { negative: boolean; digits: string; exponent: number };

function numeralParts(text: string): NumeralParts | undefined {
  const m = NUMERAL_RE.exec(text);
  if (!m) return undefined;
  const whole = m[2] ?? '';
  const fraction = m[3] ?? '';
  if (whole === '' && fraction === '') return undefined;
  const all = whole + fraction;
  let start = 0;
  while (start < all.length && all.charCodeAt(start) === 48) start++;
  let end = all.length;
  while (end > start && all.charCodeAt(end - 1) === 48) end--;
  if (start === end) return { negative: false, digits: '0', exponent: 0 };
  return { negative: m[1] === '-', digits: all.slice(start, end), exponent: Number(m[4] ?? 0) - fraction.length + (all.length - end) };
}

const sameParts = (a: NumeralParts, b: NumeralParts) => a.negative === b.negative && a.digits === b.digits && a.exponent === b.exponent;

/**
 * Whether a decimal numeral (a JSON number literal, a CSV number cell) stands for exactly the number it is read as:
 * the same decimal as the shortest text that reads back as that number (`String(Number(text))`). So `12.30`, `1e2`,
 * `-0` and `0.1` are exact; `12.3400000000000000001` (read as 12.34), `12.0000000000000001` (read as 12),
 * `1e400` (read as Infinity) and `1e-400` (read as 0) are not, nor is text that is no numeral. A numeral of at most
 * 15 characters without exponent (at most 15 significant digits, 1e-13 or more) is always exact, and is known to be
 * without writing the number as text.
 */
export function isExactNumeral(text: string): boolean {
  if (text.length <= 15 && SHORT_PLAIN_RE.test(text)) return true;
  const value = Number(text);
  if (!Number.isFinite(value)) return false;
  const written = numeralParts(text);
  const read = numeralParts(String(value));
  return written !== undefined && read !== undefined && sameParts(written, read);
}

/** A number field's bounds as its messages say them (every numeric field refuses numbers below 0). */
type NumberRules = { decimals?: number; max: number; above: string; below: string };

/**
 * Money written as 1 to 3 digits (not starting with 0), a point and 3 digits: `1.500` is 1.5 to a parser, and 1500
 * to an export or a clerk that writes a point between thousands. Such a CSV or form cell is kept as text (see
 * cellValue) and refused with both readings; money with more decimals that cannot be a thousands group (`12.3400`, as
 * SQL tools write money) is read as its number, and refused only if a digit beyond the cents is not 0.
 */
export const MAYBE_THOUSANDS_RE = /^[+-]?[1-9]\d{0,2}\.\d{3}$/;

/** The field message for money text of the MAYBE_THOUSANDS_RE shape (money fields are those with 2 decimals). */
function maybeThousandsProblem(text: string, rules: NumberRules): string | undefined {
  if (rules.decimals !== 2 || !MAYBE_THOUSANDS_RE.test(text)) return undefined;
  if (text.startsWith('-')) return rules.below;
  const [whole, decimals] = text.replace(/^\+/, '').split('.') as [string, string];
  return `must be written with at most 2 decimals (${text} could mean ${Number(text)}, or ${whole}${decimals} written with a point `
    + 'between thousands): write the amount you mean as a number with no thousands separator';
}

/**
 * The field message for text that is a numeral but no exact number (a CSV cell such as `12.3400000000000000001`,
 * which the CSV template keeps as text instead of reading it rounded): what the field's rules say of it as
 * written. Undefined for any other value.
 */
function inexactNumeralProblem(input: unknown, rules: NumberRules): string | undefined {
  if (typeof input !== 'string') return undefined;
  const text = input.trim();
  if (isExactNumeral(text)) return maybeThousandsProblem(text, rules);
  const parts = numeralParts(text);
  if (!parts) return undefined;
  // Decimals as written, trailing zeros aside. The numeral has 16 or more significant digits (else it would be
  // exact), so with at most 2 decimals it is 1e13 or more: beyond every field's bounds.
  if (rules.decimals !== undefined && -parts.exponent > rules.decimals) {
    return rules.decimals === 0 ? 'must be a whole number' : `must have at most ${rules.decimals} decimals`;
  }
  // No numeric field takes a number below 0, and the digits of an inexact numeral are not all zeros.
  if (parts.negative) return rules.below;
  if (Number(text) > rules.max) return rules.above;
  return 'must be written with at most 15 significant digits (a longer number cannot be held exactly)';
}

/**
 * The largest amount a money field holds: 999,999,999,999.99. Up to here every value with two decimals is a
 * distinct double, so it is stored exactly; beyond it a value would be stored rounded, so it is refused.
 */
export const MONEY_MAX = 999_999_999_999.99;
const MONEY_MAX_TEXT = '999,999,999,999.99';

/** Whether a money value is within 0..MONEY_MAX (or above 0 when `positive`) with at most two decimals. */
export const isMoney = (v: number, positive = false) =>
  (positive ? v > 0 : v >= 0) && v <= MONEY_MAX && hasAtMostTwoDecimals(v);

const numberField = (rules: NumberRules, notNumber = 'must be a number') =>
  z.number({ error: (iss) => (iss.input === undefined ? 'is required' : inexactNumeralProblem(iss.input, rules) ?? notNumber) });

const finite = (rules: NumberRules) => numberField(rules).refine(Number.isFinite, 'must be a finite number');

const MONEY_ABOVE = `must be at most ${MONEY_MAX_TEXT}`;

const money = () =>
  finite({ decimals: 2, max: MONEY_MAX, above: MONEY_ABOVE, below: 'must be 0 or more' })
    .min(0, 'must be 0 or more').max(MONEY_MAX, MONEY_ABOVE).refine(hasAtMostTwoDecimals, 'must have at most 2 decimals');

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (iss) => (iss.input === undefined ? 'is required' : `must be one of ${values.join(', ')}`) });

const optional = <T extends z.ZodType>(schema: T) => schema.optional();
const required = <T extends z.ZodType>(schema: T) => schema;

export const EMPLOYEE_STATUSES = ['ACTIVE', 'ON_LEAVE', 'TERMINATED'] as const;
export const PAY_CYCLES = ['WEEKLY', 'BIWEEKLY', 'SEMIMONTHLY', 'MONTHLY'] as const;
export const TIME_TYPES = ['FULL_TIME', 'PART_TIME'] as const;

const unknownFields = (iss: { code?: string; keys?: string[] }) =>
  iss.code === 'unrecognized_keys' ? `unknown field(s): ${(iss.keys ?? []).join(', ')}` : 'must be an object';

const censusRecordObject = z.strictObject(
  {
    lastName: required(text()),
    firstName: required(text()),
    employeeRegistration: required(text(LIMITS.employeeRegistrationMax)),
    hireDate: required(date()),
    employeeStatus: required(oneOf(EMPLOYEE_STATUSES)),
    eligibleForBenefits: optional(z.boolean({ error: 'must be true or false' })),
    payCycle: optional(oneOf(PAY_CYCLES)),
    periodsPerYear: optional(
      numberField({ decimals: 0, max: 366, above: 'must be 1 to 366', below: 'must be 1 to 366' }, 'must be a whole number')
        .int('must be a whole number').min(1, 'must be 1 to 366').max(366, 'must be 1 to 366'),
    ),
    grossAnnualSalary: optional(money()),
    salaryPerPeriod: optional(money()),
    standardHours: optional(finite({ max: 168, above: 'must be 0 to 168', below: 'must be 0 to 168' }).min(0, 'must be 0 to 168').max(168, 'must be 0 to 168')),
    hourlyRate: optional(money()),
    timeType: optional(oneOf(TIME_TYPES)),
    payrollGroup: optional(text()),
    payrollArea: optional(text()),
    personnelSubArea: optional(text()),
  },
  { error: unknownFields },
);

const receiptRecordObject = z.strictObject(
  {
    lastName: required(text()),
    firstName: required(text()),
    ssn: required(
      // Trimmed like every other string (§1): "123-45-6789 " is that SSN, as a spreadsheet cell or a typed field.
      z.string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
        .trim()
        .regex(/^\d{3}-\d{2}-\d{4}$/, 'must be written 123-45-6789'),
    ),
    employeeRegistration: required(text(LIMITS.employeeRegistrationMax)),
    paymentDate: required(date()),
    amount: required(finite({ decimals: 2, max: MONEY_MAX, above: MONEY_ABOVE, below: 'must be more than 0' })
      .gt(0, 'must be more than 0').max(MONEY_MAX, MONEY_ABOVE).refine(hasAtMostTwoDecimals, 'must have at most 2 decimals')),
  },
  { error: unknownFields },
);

export const censusRecordSchema = z.preprocess(withoutNullsOf(Object.keys(censusRecordObject.shape)), censusRecordObject);
export const receiptRecordSchema = z.preprocess(withoutNullsOf(Object.keys(receiptRecordObject.shape)), receiptRecordObject);

export type CensusRecord = z.output<typeof censusRecordSchema>;
export type ReceiptRecord = z.output<typeof receiptRecordSchema>;
/** What a client may send (before trimming and null-stripping). */
export type CensusRecordInput = { [K in keyof z.input<typeof censusRecordObject>]?: z.input<typeof censusRecordObject>[K] | null };
export type ReceiptRecordInput = { [K in keyof z.input<typeof receiptRecordObject>]?: z.input<typeof receiptRecordObject>[K] | null };

const batch = <T extends z.ZodType>(record: T) =>
  z.array(record, { error: 'the body must be a JSON array of records' }).min(1, 'the array must hold at least one record');

export const censusBatchSchema = batch(censusRecordSchema);
export const receiptBatchSchema = batch(receiptRecordSchema);

export const RECORD_KINDS = ['census', 'receipt'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
export const recordSchemas = { census: censusRecordSchema, receipt: receiptRecordSchema } as const;
export const batchSchemas = { census: censusBatchSchema, receipt: receiptBatchSchema } as const;
