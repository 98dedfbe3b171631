/** Census and receipt records: the rules of docs/service-decisions.md §1. */
import { z } from 'zod';
import { isRealDate } from './dates';
import { LIMITS } from './limits';

/**
 * `null` is treated as absent: null-valued keys are dropped before a record is checked. One pass per record
 * (not a wrapper per field), because CSV processing checks up to a million records per file.
 */
export function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if ((value as Record<string, unknown>)[key] === null) {
      copy ??= { ...(value as Record<string, unknown>) };
      delete copy[key];
    }
  }
  return copy ?? value;
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

/**
 * The largest amount a money field holds: 999,999,999,999.99. Up to here every value with two decimals is a
 * distinct double, so it is stored exactly; beyond it a value would be stored rounded, so it is refused.
 */
export const MONEY_MAX = 999_999_999_999.99;
const MONEY_MAX_TEXT = '999,999,999,999.99';

/** Whether a money value is within 0..MONEY_MAX (or above 0 when `positive`) with at most two decimals. */
export const isMoney = (v: number, positive = false) =>
  (positive ? v > 0 : v >= 0) && v <= MONEY_MAX && hasAtMostTwoDecimals(v);

const finite = () =>
  z.number({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a number') })
    .refine(Number.isFinite, 'must be a finite number');

const money = () =>
  finite().min(0, 'must be 0 or more').max(MONEY_MAX, `must be at most ${MONEY_MAX_TEXT}`).refine(hasAtMostTwoDecimals, 'must have at most 2 decimals');

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
      z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 to 366').max(366, 'must be 1 to 366'),
    ),
    grossAnnualSalary: optional(money()),
    salaryPerPeriod: optional(money()),
    standardHours: optional(finite().min(0, 'must be 0 to 168').max(168, 'must be 0 to 168')),
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
      z.string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
        .regex(/^\d{3}-\d{2}-\d{4}$/, 'must be written 123-45-6789'),
    ),
    employeeRegistration: required(text(LIMITS.employeeRegistrationMax)),
    paymentDate: required(date()),
    amount: required(finite().gt(0, 'must be more than 0').max(MONEY_MAX, `must be at most ${MONEY_MAX_TEXT}`)
      .refine(hasAtMostTwoDecimals, 'must have at most 2 decimals')),
  },
  { error: unknownFields },
);

export const censusRecordSchema = z.preprocess(withoutNulls, censusRecordObject);
export const receiptRecordSchema = z.preprocess(withoutNulls, receiptRecordObject);

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
