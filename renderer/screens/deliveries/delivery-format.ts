/** How a delivery attempt's values read on screen. */
import type { DeliveryAttempt } from '../../../shared';
import { deliveriesText } from './deliveries-text';

const t = deliveriesText;
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** `createdAt` is UTC without a zone designator (`2026-03-31T12:00:00`); shown in the clerk's own time. */
export function deliveryTime(createdAt: string): string {
  const at = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(createdAt) ? createdAt : `${createdAt}Z`);
  return Number.isNaN(at) ? createdAt : timeFormat.format(at);
}

export function httpCodeText(d: Pick<DeliveryAttempt, 'status' | 'httpStatusCode'>): string {
  if (d.httpStatusCode !== null) return String(d.httpStatusCode);
  return d.status === 1 ? t.pending : t.noAnswer;
}

export function durationText(d: Pick<DeliveryAttempt, 'status' | 'durationMs'>): string {
  return d.status === 1 ? t.pending : t.ms(d.durationMs);
}

export const eventText = (eventType: string) => t.events[eventType] ?? eventType;
