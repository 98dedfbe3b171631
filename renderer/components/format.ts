/** How numbers, sizes and times read on screen. */
import { isRealDate } from '../../shared';

const KB = 1024;

export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${bytes} B`;
  if (bytes < KB * KB) return `${(bytes / KB).toFixed(bytes < 10 * KB ? 1 : 0)} KB`;
  if (bytes < KB * KB * KB) return `${(bytes / KB / KB).toFixed(1)} MB`;
  return `${(bytes / KB / KB / KB).toFixed(2)} GB`;
}

export const formatSpeed = (bytesPerSecond: number) => `${formatBytes(Math.round(bytesPerSecond))}/s`;

/** "12 s", "3 min", "1 h 5 min": how long something still takes, rounded up as a clerk would say it. */
export function formatDuration(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

export const formatDateTime = (ms: number) => dateTime.format(ms);
export const formatTime = (ms: number) => time.format(ms);

// A calendar date is the same day everywhere: its midnight UTC is formatted in UTC, never moved into the local zone
// (where 2026-03-01T00:00:00Z is still February 28 west of Greenwich).
const calendarDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * A calendar date (`YYYY-MM-DD`, or a reference date `YYYY-MM-DDT00:00:00Z`) in the clerk's locale, as the other
 * dates read ("Mar 1, 2026"); anything else is shown as it came. `locale` is for tests.
 */
export function formatCalendarDate(value: string, locale?: string): string {
  const day = value.slice(0, 10);
  if (!isRealDate(day) || (value.length > 10 && !value.startsWith('T00:00:00', 10))) return value;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const format = locale ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }) : calendarDate;
  return format.format(Date.UTC(year, month - 1, date));
}

// One formatter for the app: toLocaleString() builds a new one on every call, which showed in profiles of a busy Queue.
const integer = new Intl.NumberFormat();
export const formatNumber = (n: number) => integer.format(n);

/** The core's and the service's reasons are clauses ("the service cannot be reached"); on screen they read as a sentence. */
export function asSentence(text: string | undefined): string {
  const trimmed = text?.trim();
  if (!trimmed) return '';
  const start = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(start) ? start : `${start}.`;
}
