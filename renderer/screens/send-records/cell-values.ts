/**
 * Cells pasted from a spreadsheet (rows, or one value pasted into a date input) checked against what the inputs can
 * hold: a date input holds only a real YYYY-MM-DD date and a select only one of its choices; anything else would be
 * blanked by the browser, silently losing what the clerk pasted. Everything else is left for the record schema.
 * JSON is not a spreadsheet and is checked as the service checks it (json-records.ts).
 *
 * A date with slashes is copied as the spreadsheet shows it, day first (31/03/2026) or month first (03/31/2026). Where
 * a part is above 12 the date says its own order; where both are 12 or less and differ (05/03/2026) it could be
 * either, and is read the way the rest of its column shows (`columnDateReading`), else the way the clerk's browser
 * writes dates (`localeDateOrder`). Such a reading is never silent: the cell comes with a note that says which date
 * it was read as.
 */
import { isRealDate } from '../../../shared';
import type { FieldSpec } from './record-fields';
import { sendRecordsText } from './send-records-text';

const pasteText = sendRecordsText.check;

const SLASH_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

export type DateOrder = 'day-first' | 'month-first';

/** Whether a cell is a date written with slashes (its day and month in one order or the other). */
export const isSlashDate = (cell: string): boolean => SLASH_DATE.test(cell.trim());

/**
 * How the slash dates that could be read either way are read, and why: `shownBy` is a cell of the same column whose
 * order is plain (31/03/2026); without one, the order is the clerk's browser's.
 */
export type DateReading = { order: DateOrder; shownBy?: string };

/** Whether the clerk's browser (or `locale`) writes the day before the month: en-GB does, en-US does not. */
export function localeDateOrder(locale?: string): DateOrder {
  const parts = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', year: 'numeric' }).formatToParts(new Date(2026, 2, 15));
  const first = parts.find((p) => p.type === 'day' || p.type === 'month');
  return first?.type === 'day' ? 'day-first' : 'month-first';
}

/** The order a slash date shows by itself (a part above 12 is the day), or undefined when it could be either. */
function plainOrder(first: number, second: number): DateOrder | undefined {
  if (first > 12 && second <= 12) return 'day-first';
  if (second > 12 && first <= 12) return 'month-first';
  return undefined;
}

/**
 * How the slash dates of one pasted column are read: the order its plain dates show, or `fallback` when none does.
 * A column whose dates show both orders cannot be read: which of its dates are turned around is anyone's guess.
 */
export function columnDateReading(cells: readonly string[], fallback: DateOrder): DateReading | { problem: (value: string) => string } {
  const shown: Partial<Record<DateOrder, string>> = {};
  for (const cell of cells) {
    const parts = SLASH_DATE.exec(cell.trim());
    const order = parts && plainOrder(Number(parts[1]), Number(parts[2]));
    // Only a real date tells the order (32/01/2026 is no date either way) and is named as telling it.
    if (order && 'value' in readDate(cell.trim(), { order })) {
      shown[order] ??= cell.trim();
    }
  }
  const dayFirst = shown['day-first'];
  const monthFirst = shown['month-first'];
  if (dayFirst && monthFirst) return { problem: (value) => pasteText.mixedDateOrders(value, dayFirst, monthFirst) };
  if (dayFirst) return { order: 'day-first', shownBy: dayFirst };
  if (monthFirst) return { order: 'month-first', shownBy: monthFirst };
  return { order: fallback };
}

/** A cell's value, with a note when the clerk should know how it was read (a date that could be read two ways). */
export type CellCheck = { value: string; note?: string } | { problem: string };

/**
 * The value an input of `spec` holds for `raw`, or why it cannot hold it. `dates`: how a slash date that could be
 * read either way is read (the clerk's browser's order unless the caller knows better).
 */
export function checkCell(spec: FieldSpec, raw: string, dates: DateReading = { order: localeDateOrder() }): CellCheck {
  const value = raw.trim();
  if (value === '') return { value: '' };
  if (spec.input === 'date') return readDate(value, dates);
  if (spec.input === 'select' && spec.options) {
    const wanted = squash(value);
    const synonyms: Record<string, string> = { yes: 'true', no: 'false', y: 'true', n: 'false' };
    const found = spec.options.find((o) => squash(o.value) === wanted || squash(o.label) === wanted || o.value === synonyms[wanted]);
    return found ? { value: found.value } : { problem: pasteText.notAChoice(value, spec.options.map((o) => o.label)) };
  }
  // A cell holding a line break ("Lee" and "Kim" on two lines) goes into a one-line input, which would drop the break
  // and join the words: the lines are joined with a space instead.
  return { value: value.replace(/\s*[\r\n]+\s*/g, ' ') };
}

/** A date as pasted (YYYY-MM-DD, or with slashes in either order) as the date input's value. */
function readDate(value: string, dates: DateReading): CellCheck {
  const slash = SLASH_DATE.exec(value);
  if (!slash) return realDate(value, value);
  const [first, second, year] = [Number(slash[1]), Number(slash[2]), slash[3]!];
  const order = plainOrder(first, second) ?? dates.order;
  const [month, day] = order === 'day-first' ? [second, first] : [first, second];
  const checked = realDate(value, `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
  // The same number twice (05/05/2026) reads the same either way.
  const eitherWay = first <= 12 && second <= 12 && first !== second;
  if (!eitherWay || 'problem' in checked) return checked;
  return { value: checked.value, note: pasteText.readAs(value, dateInWords(year, month, day), dateInWords(year, day, month), order, dates.shownBy) };
}

/** `iso` as the date input's value, or why `value` (as pasted) names no day. */
function realDate(value: string, iso: string): CellCheck {
  if (isRealDate(iso)) return { value: iso };
  const why = unrealDate(iso);
  return { problem: why ? pasteText.noSuchDate(value, why) : pasteText.notADate(value) };
}

const dateInWords = (year: string, month: number, day: number) => pasteText.dateInWords(Number(year), month, day);

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
