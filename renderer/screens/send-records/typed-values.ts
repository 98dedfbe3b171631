/**
 * What the clerk typed into a number or date input, when the record's rules cannot read it: said in the clerk's
 * terms, with what to write, instead of the service's words for a JSON value ("must be a number", "must be a real
 * calendar date YYYY-MM-DD"), which speak of a form the clerk never sees (the date input shows mm/dd/yyyy).
 */
import { isNumberCell } from '../../../shared';
import type { FieldSpec } from './record-fields';
import { sendRecordsText } from './send-records-text';

const c = sendRecordsText.check;

const MONEY_FIELDS = new Set(['grossAnnualSalary', 'salaryPerPeriod', 'hourlyRate', 'amount']);

/** The date input's value: YYYY-MM-DD, but its year may have fewer or more than 4 digits (0026, 202612). */
const DATE_VALUE = /^(\d+)-\d{2}-\d{2}$/;

/**
 * Why `text`, typed into the input of `spec`, is no value of the field, or undefined when the record's rules read it
 * (and say themselves what is wrong with it, such as an amount of 0). A number is read as the CSV template reads a
 * cell: digits, with a point for decimals; anything else ("1.234,56", "12,5", "$1,234.56", "1 234.50") is refused with
 * what to write. No comma is read as a decimal point: "1,234" may be a thousand or a decimal, and the field would show
 * one thing while another is sent.
 */
export function typedValueProblem(spec: FieldSpec, text: string): string | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  if (spec.input === 'number') {
    if (isNumberCell(value)) return undefined;
    return MONEY_FIELDS.has(spec.name) ? c.typedMoney : spec.name === 'periodsPerYear' ? c.typedWhole : c.typedHours;
  }
  if (spec.input === 'date') {
    // A year the schema refuses (it takes 0100 to 9999): the date input took a 2-digit year as 0026, or 6 digits.
    // A year from 100 to 999 the schema takes, but no payroll date has one: it is a year typed short (Chromium pads
    // 202 to 0202), and would be sent as it shows, so it is called out too (`typedValueSlip`).
    const year = DATE_VALUE.exec(value)?.[1];
    if (year !== undefined && (year.length !== 4 || Number(year) < 1000)) return c.typedYear(year);
  }
  return undefined;
}

/**
 * Why a value the record's rules take is still surely not what the clerk meant: a date input's year below 1000
 * (0202, typed as 202). Undefined for any other field or value.
 */
export function typedValueSlip(spec: FieldSpec, text: string): string | undefined {
  return spec.input === 'date' ? typedValueProblem(spec, text) : undefined;
}
