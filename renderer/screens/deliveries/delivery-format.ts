/** How a delivery attempt's values read on screen. */
import type { DeliveryAttempt } from '../../../shared';
import { deliveriesText } from './deliveries-text';

const t = deliveriesText;
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const clockFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/** `createdAt` is UTC without a zone designator (`2026-03-31T12:00:00`); NaN when it is not a time. */
function parseCreatedAt(createdAt: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(createdAt) ? createdAt : `${createdAt}Z`);
}

/** The time of a try in the clerk's own time. */
export function deliveryTime(createdAt: string): string {
  const at = parseCreatedAt(createdAt);
  return Number.isNaN(at) ? createdAt : timeFormat.format(at);
}

/**
 * The same time in two parts, the day and the time of day, for the table to put on a line each: left to wrap where it
 * fits, a narrow column broke "Nov 24, 2026, 1:23:40 PM" over four or five lines. Null when it is not a time.
 */
export function deliveryDayAndTime(createdAt: string): { day: string; time: string; iso: string } | null {
  const at = parseCreatedAt(createdAt);
  if (Number.isNaN(at)) return null;
  return { day: dayFormat.format(at), time: clockFormat.format(at), iso: new Date(at).toISOString() };
}

export function httpCodeText(d: Pick<DeliveryAttempt, 'status' | 'httpStatusCode'>): string {
  if (d.httpStatusCode !== null) return String(d.httpStatusCode);
  return d.status === 1 ? t.pending : t.noAnswer;
}

/** The HTTP code said beside the status, in its cell, where the table has no room for a column of its own: "HTTP 500". */
export function statusCodeText(d: Pick<DeliveryAttempt, 'status' | 'httpStatusCode'>): string {
  return d.httpStatusCode !== null ? t.table.statusCode(d.httpStatusCode) : httpCodeText(d);
}

export function durationText(d: Pick<DeliveryAttempt, 'status' | 'durationMs'>): string {
  return d.status === 1 ? t.pending : t.ms(d.durationMs);
}

export const eventText = (eventType: string) => t.events[eventType] ?? eventType;
