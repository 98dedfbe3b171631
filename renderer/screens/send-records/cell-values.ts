/**
 * Cells pasted from a spreadsheet (rows, or one value pasted into a date input) checked against what the inputs can
 * hold: a date input holds only a real YYYY-MM-DD date and a select only one of its choices; anything else would be
 * blanked by the browser, silently losing what the clerk pasted. Everything else is left for the record schema.
 * Cells are read the way a US spreadsheet copies them (MM/DD/YYYY, a list's words); JSON is not a spreadsheet and is
 * checked as the service checks it (json-records.ts).
 */
import { isRealDate } from '../../../shared';
import type { FieldSpec } from './record-fields';
import { sendRecordsText } from './send-records-text';

const pasteText = sendRecordsText.check;

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

export type CellCheck = { value: string } | { problem: string };

/** The value an input of `spec` holds for `raw`, or why it cannot hold it. */
export function checkCell(spec: FieldSpec, raw: string): CellCheck {
  const value = raw.trim();
  if (value === '') return { value: '' };
  if (spec.input === 'date') {
    const us = US_DATE.exec(value);
    const iso = us ? `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}` : value;
    if (isRealDate(iso)) return { value: iso };
    const why = unrealDate(iso);
    if (!why) return { problem: pasteText.notADate(value) };
    // 31/04/2026 is a day-first date: say how a date with slashes is read.
    const dayFirst = us !== null && Number(us[1]) > 12;
    return { problem: pasteText.noSuchDate(value, dayFirst ? `${why}${pasteText.monthFirst}` : why) };
  }
  if (spec.input === 'select' && spec.options) {
    const wanted = squash(value);
    const synonyms: Record<string, string> = { yes: 'true', no: 'false', y: 'true', n: 'false' };
    const found = spec.options.find((o) => squash(o.value) === wanted || squash(o.label) === wanted || o.value === synonyms[wanted]);
    return found ? { value: found.value } : { problem: pasteText.notAChoice(value, spec.options.map((o) => o.label)) };
  }
  return { value };
}

/**
 * Why a YYYY-MM-DD text that is not a real date names no day ("February 2026 has 28 days", "there is no month 13"),
 * or undefined when it is not written as a date at all.
 */
export function unrealDate(iso: string): string | undefined {
  const parts = ISO_DATE.exec(iso);
  if (!parts) return undefined;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (year < 100) return undefined;
  if (month < 1 || month > 12) return pasteText.noMonth(month);
  if (day === 0) return pasteText.noDayZero;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return pasteText.monthHasDays(month, year, month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The field a header cell names: its field name (`hireDate`) or its label (`Hire date`), in any case or spacing. */
export function fieldOfHeader(specs: readonly FieldSpec[], header: string): FieldSpec | undefined {
  const wanted = squash(header);
  if (wanted === '') return undefined;
  return specs.find((s) => squash(s.name) === wanted || squash(s.label) === wanted);
}
