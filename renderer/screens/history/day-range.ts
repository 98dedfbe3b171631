/**
 * The days a History filter names, as the instants they start and end where the clerk is. History shows every time in
 * this browser's zone, so "Nov 24" must mean the 24 hours the clerk sees as Nov 24 here, whatever zone the PC was in when
 * a file was found or a batch sent (a PC set to the wrong zone, corrected later, filed its day under another date).
 * One rule for both tabs: Files sends these instants to the core (jobs.query foundSince/foundBefore), Sent records
 * filters its batches with them here.
 */

/** From (inclusive) and before (exclusive), in ms since 1970 UTC; a side left open is absent. */
export type DayRange = { since?: number; before?: number };

/** The instant the local day `day` (YYYY-MM-DD) starts, or the one `later` days after it starts. */
function startOfDay(day: string, later = 0): number | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!parts) return undefined;
  // setFullYear rather than new Date(y, m, d): that reads the years 0-99 as 1900-1999. A day whose midnight does not
  // exist here (a clock set forward at 00:00) starts at the first time it has.
  const date = new Date(0);
  date.setFullYear(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]) + later);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** The range of the days `from` to `to`, both included (either may be empty); a range given backwards is read the right way round. */
export function dayRange(from: string, to: string): DayRange {
  const [first, last] = from && to && from > to ? [to, from] : [from, to];
  const since = first ? startOfDay(first) : undefined;
  const before = last ? startOfDay(last, 1) : undefined;
  return { ...(since !== undefined ? { since } : {}), ...(before !== undefined ? { before } : {}) };
}

/** Whether the instant `ms` falls in the range. */
export const inDayRange = (ms: number, range: DayRange): boolean =>
  (range.since === undefined || ms >= range.since) && (range.before === undefined || ms < range.before);
