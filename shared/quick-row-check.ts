/**
 * A fast path for CSV rows and JSON records: accepts one only when it is sure the zod record schema accepts it,
 * and then returns exactly the record zod would return. Anything else returns undefined and goes through zod, which stays
 * the single authority (and writes every error message). Checking cells directly is several times cheaper than
 * zod per row, which matters for files of a million rows; a property test holds the two to the same answer.
 */
import { cellValue } from './csv-template';
import { isRealDate } from './dates';
import { LIMITS } from './limits';
import type { RecordKind } from './records.schema';
import { EMPLOYEE_STATUSES, PAY_CYCLES, TIME_TYPES, isMoney } from './records.schema';

const SSN_RE = /^\d{3}-\d{2}-\d{4}$/;
const S = LIMITS.stringMax;

/** Returned by a value check when zod might refuse the value; no object is allocated per checked field. */
const UNSURE: unique symbol = Symbol('unsure');
type Value = (v: unknown) => unknown;

const jsonText = (max: number): Value => (v) => {
  if (typeof v !== 'string') return UNSURE;
  const value = v.trim();
  return value.length >= 1 && value.length <= max ? value : UNSURE;
};
const jsonString = (check: (s: string) => boolean): Value => (v) => (typeof v === 'string' && check(v) ? v : UNSURE);
const jsonNumber = (check: (n: number) => boolean): Value => (v) => (typeof v === 'number' && Number.isFinite(v) && check(v) ? v : UNSURE);
const jsonMoney = jsonNumber((n) => isMoney(n));
/** A field's rule, looked up as an own property only: a key such as `constructor` or `toString` is not a field. */
const fieldOf = (fields: Record<string, { check: Value; required: boolean }>, name: string) =>
  Object.hasOwn(fields, name) ? fields[name] : undefined;

const inSet = (values: readonly string[]) => {
  const set = new Set(values);
  return jsonString((s) => set.has(s));
};

const VALUES: Record<RecordKind, Record<string, { check: Value; required: boolean }>> = {
  census: {
    lastName: { check: jsonText(S), required: true },
    firstName: { check: jsonText(S), required: true },
    employeeRegistration: { check: jsonText(LIMITS.employeeRegistrationMax), required: true },
    hireDate: { check: jsonString(isRealDate), required: true },
    employeeStatus: { check: inSet(EMPLOYEE_STATUSES), required: true },
    eligibleForBenefits: { check: (v) => (typeof v === 'boolean' ? v : UNSURE), required: false },
    payCycle: { check: inSet(PAY_CYCLES), required: false },
    periodsPerYear: { check: jsonNumber((n) => Number.isInteger(n) && n >= 1 && n <= 366), required: false },
    grossAnnualSalary: { check: jsonMoney, required: false },
    salaryPerPeriod: { check: jsonMoney, required: false },
    standardHours: { check: jsonNumber((n) => n >= 0 && n <= 168), required: false },
    hourlyRate: { check: jsonMoney, required: false },
    timeType: { check: inSet(TIME_TYPES), required: false },
    payrollGroup: { check: jsonText(S), required: false },
    payrollArea: { check: jsonText(S), required: false },
    personnelSubArea: { check: jsonText(S), required: false },
  },
  receipt: {
    lastName: { check: jsonText(S), required: true },
    firstName: { check: jsonText(S), required: true },
    ssn: { check: jsonString((s) => SSN_RE.test(s)), required: true },
    employeeRegistration: { check: jsonText(LIMITS.employeeRegistrationMax), required: true },
    paymentDate: { check: jsonString(isRealDate), required: true },
    amount: { check: jsonNumber((n) => isMoney(n, true)), required: true },
  },
};

/**
 * A checker for rows under a header that passed `headerProblems` (known columns only, each once). Each cell is
 * typed by `cellValue`, the conversion that feeds zod, then checked like a JSON value. It returns the record when
 * the row surely passes, else undefined (then validate with zod). Cells beyond the header: undefined.
 */
export function quickRowCheck(kind: RecordKind, header: readonly string[]): (cells: readonly string[]) => Record<string, unknown> | undefined {
  const columns = header.map((name) => ({ name, field: fieldOf(VALUES[kind], name) }));
  const missingRequired = Object.entries(VALUES[kind]).some(([name, f]) => f.required && !header.includes(name));
  return (cells) => {
    if (missingRequired || cells.length > columns.length) return undefined;
    const record: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) {
      const { name, field } = columns[i]!;
      if (!field) return undefined;
      const value = cellValue(name, cells[i] ?? '');
      if (value === undefined) {
        if (field.required) return undefined;
        continue;
      }
      const checked = field.check(value);
      if (checked === UNSURE) return undefined;
      record[name] = checked;
    }
    return record;
  };
}

/**
 * The same fast path for a JSON record (direct imports): the record zod would return, or undefined when unsure.
 * A record that zod would return unchanged (no string to trim, no null to drop) is returned as it is, not
 * copied: a 5 MB batch holds some 15,000 records, and copying them cost more than parsing the body.
 */
export function quickRecordCheck(kind: RecordKind): (value: unknown) => Record<string, unknown> | undefined {
  const fields = VALUES[kind];
  const requiredCount = Object.values(fields).filter((f) => f.required).length;
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
    const input = value as Record<string, unknown>;
    let required = 0;
    let changed = false;
    for (const name in input) {
      const field = fieldOf(fields, name);
      if (!field || !Object.hasOwn(input, name)) return undefined;
      const v = input[name];
      if (v === null || v === undefined) {
        changed = true;
        continue;
      }
      const checked = field.check(v);
      if (checked === UNSURE) return undefined;
      if (checked !== v) changed = true;
      if (field.required) required++;
    }
    if (required !== requiredCount) return undefined;
    return changed ? checkedCopy(fields, input) : input;
  };
}

/** The record zod would return for an input that passed the quick check: null fields left out, values as checked. */
function checkedCopy(fields: Record<string, { check: Value; required: boolean }>, input: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const name in input) {
    const v = input[name];
    if (v !== null && v !== undefined) record[name] = fieldOf(fields, name)!.check(v);
  }
  return record;
}
