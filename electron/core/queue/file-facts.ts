/** What a file's name tells: its type by the user's rules, and its reference date (docs/service-decisions.md §9). */
import type { FileTypeCode } from '../../../shared';
import { isRealDate, toReferenceDate } from '../../../shared';
import type { FileTypeRule } from '../../../shared/settings.schema';

/** The first rule whose `contains` occurs in the name, compared case-insensitively. */
export function fileTypeFromName(name: string, rules: readonly FileTypeRule[]): FileTypeCode | undefined {
  const lower = name.toLowerCase();
  return rules.find((rule) => lower.includes(rule.contains.toLowerCase()))?.fileType;
}

// Digits not glued to other digits, so "20260315" in "export-120260315" does not count.
const DATE_IN_NAME = /(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)/g;

/** The first real date in the name (YYYY-MM-DD or YYYYMMDD), as YYYY-MM-DD. */
export function dateFromName(name: string): string | undefined {
  for (const m of name.matchAll(DATE_IN_NAME)) {
    const whole = m[0];
    // Either both separators or none: 2026-0315 is not a date.
    if (whole.length !== 8 && whole.length !== 10) continue;
    const day = `${m[1]}-${m[2]}-${m[3]}`;
    if (isRealDate(day)) return day;
  }
  return undefined;
}

/** `referenceDate` of a file: the date in its name, else the day it was found (YYYY-MM-DD). */
export function referenceDateOf(name: string, foundDay: string): string {
  return toReferenceDate(dateFromName(name) ?? foundDay);
}

/** A local calendar day YYYY-MM-DD: folder names and "the day it was found" follow the user's clock. */
export function localDay(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
