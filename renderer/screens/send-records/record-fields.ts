/**
 * The census and receipt fields as the forms show them: label, kind of input and choices. Values in the forms are
 * the text the clerk typed, like spreadsheet cells; `recordOfRow` turns them into a record by the CSV template's
 * cell rules, so a form, a pasted spreadsheet and a CSV file mean the same thing.
 */
import type { RecordKind } from '../../../shared';
import { CSV_COLUMNS, EMPLOYEE_STATUSES, PAY_CYCLES, REQUIRED_COLUMNS, TIME_TYPES, cellValue } from '../../../shared';
import { sendRecordsText } from './send-records-text';

export type CensusField = (typeof CSV_COLUMNS.census)[number];
export type ReceiptField = (typeof CSV_COLUMNS.receipt)[number];
export type RecordField<K extends RecordKind> = K extends 'census' ? CensusField : ReceiptField;

export type FieldInput = 'text' | 'date' | 'number' | 'select';

export type FieldSpec = {
  name: string;
  label: string;
  input: FieldInput;
  required: boolean;
  /** For selects: the stored value and the words shown. */
  options?: readonly { value: string; label: string }[];
  /** inputMode for number fields: whole numbers or amounts. */
  numeric?: 'numeric' | 'decimal';
  hint?: string;
};

const t = sendRecordsText.fields;

const inputOf: Record<string, FieldInput> = {
  hireDate: 'date', paymentDate: 'date',
  employeeStatus: 'select', payCycle: 'select', timeType: 'select', eligibleForBenefits: 'select',
  periodsPerYear: 'number', grossAnnualSalary: 'number', salaryPerPeriod: 'number', standardHours: 'number',
  hourlyRate: 'number', amount: 'number',
};

const optionsOf: Record<string, readonly { value: string; label: string }[]> = {
  employeeStatus: EMPLOYEE_STATUSES.map((v) => ({ value: v, label: t.choices[v] })),
  payCycle: PAY_CYCLES.map((v) => ({ value: v, label: t.choices[v] })),
  timeType: TIME_TYPES.map((v) => ({ value: v, label: t.choices[v] })),
  eligibleForBenefits: [{ value: 'true', label: t.choices.yes }, { value: 'false', label: t.choices.no }],
};

function specsOf(kind: RecordKind): FieldSpec[] {
  const required = new Set<string>(REQUIRED_COLUMNS[kind]);
  return CSV_COLUMNS[kind].map((name) => {
    const input = inputOf[name] ?? 'text';
    const options = optionsOf[name];
    const hint = (t.hints as Record<string, string>)[name];
    return {
      name,
      label: (t.labels as Record<string, string>)[name] ?? name,
      input,
      required: required.has(name),
      ...(options ? { options } : {}),
      ...(input === 'number' ? { numeric: name === 'periodsPerYear' ? 'numeric' as const : 'decimal' as const } : {}),
      ...(hint ? { hint } : {}),
    };
  });
}

/** Fields in the CSV template's order (the order a spreadsheet without a header row is read in). */
export const FIELDS: Record<RecordKind, readonly FieldSpec[]> = { census: specsOf('census'), receipt: specsOf('receipt') };

/**
 * The most rows one form holds, however they come (typed, pasted or loaded from JSON): more make the form slow to
 * use, and such batches belong in a CSV file.
 */
export const MAX_FORM_RECORDS = 500;

/** One person or receipt as the form holds it: every field as text, '' for not given. */
export type FormRow = Record<string, string>;

export function emptyRow(kind: RecordKind): FormRow {
  return Object.fromEntries(CSV_COLUMNS[kind].map((name) => [name, '']));
}

export function isEmptyRow(row: FormRow): boolean {
  return Object.values(row).every((v) => v.trim() === '');
}

/** The record a row stands for: empty fields are absent, numbers and true/false typed as in a CSV file. */
export function recordOfRow(kind: RecordKind, row: FormRow): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const name of CSV_COLUMNS[kind]) {
    const value = cellValue(name, row[name] ?? '');
    if (value !== undefined) record[name] = value;
  }
  return record;
}

/** The label of a field name, or the name itself when it is not one of the kind's fields. */
export function labelOf(kind: RecordKind, field: string): string {
  return FIELDS[kind].find((f) => f.name === field)?.label ?? field;
}
