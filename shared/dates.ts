/** Calendar helpers shared by the schemas, the server and the uploader. */

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isRealDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** `YYYY-MM-DDT00:00:00Z` for a real date: the form of `referenceDate`. */
export function isReferenceDate(value: string): boolean {
  return value.length === 20 && value.endsWith('T00:00:00Z') && isRealDate(value.slice(0, 10));
}

/** The UTC day of a moment as a reference date. */
export function toReferenceDate(day: Date | string): string {
  const date = typeof day === 'string' ? day : day.toISOString().slice(0, 10);
  return `${date}T00:00:00Z`;
}

/** UTC written without zone designator (`YYYY-MM-DDTHH:MM:SS`), the form of delivery `createdAt`. */
export function toZonelessUtc(at: Date): string {
  return at.toISOString().slice(0, 19);
}
