/** Webhook events and their delivery attempts in the database, and the audit view of the attempts. */
import type { DeliveriesQuery, DeliveryAttempt, WebhookEvent } from '../../../shared';
import { DELIVERY_STATUS, toZonelessUtc } from '../../../shared';
import type { Db } from '../db/database';
import { statement } from '../db/database';

/**
 * `active`: attempts remain (next_attempt_at NULL while the automatic attempt is in flight);
 * `delivered`: an automatic attempt got a 2xx; `failed`: the 5th retry failed too;
 * `cancelled`: the client's webhook registration was removed before the event got through.
 */
export type EventState = 'active' | 'delivered' | 'failed' | 'cancelled';

export type EventRow = {
  id: string; client_id: string; type: WebhookEvent['type']; payload: string; created_at: string;
  state: EventState; retries_done: number; next_attempt_at: number | null;
};

export type DeliveryRow = {
  id: number; event_id: string; client_id: string; type: 1 | 2; status: 1 | 2 | 3; http_status: number | null;
  duration_ms: number; attempt_count: number; url: string; created_at: string; failure: string | null;
};

/** An attempt row joined with its event's type. */
export type DeliveryWithEvent = DeliveryRow & { event_type: string };

const SELECT_WITH_EVENT = 'SELECT d.*, e.type AS event_type FROM deliveries d JOIN events e ON e.id = d.event_id';

/** The audit view of one attempt (deliveryAttemptSchema). */
export function toDeliveryAttempt(row: DeliveryWithEvent): DeliveryAttempt {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    httpStatusCode: row.http_status,
    durationMs: row.duration_ms,
    attemptCount: row.attempt_count,
    createdAt: toZonelessUtc(new Date(row.created_at)),
    eventId: row.event_id,
    eventType: row.event_type,
    failure: row.failure,
  };
}

/** The client's own attempts, newest first, filtered as the audit query asks. */
export function listDeliveries(db: Db, clientId: string, query: DeliveriesQuery): DeliveryAttempt[] {
  const where = ['d.client_id = ?'];
  const params: (string | number)[] = [clientId];
  if (query.status !== undefined) {
    where.push('d.status = ?');
    params.push(query.status);
  }
  if (query.maxRetries !== undefined) {
    where.push('d.attempt_count <= ?');
    params.push(query.maxRetries);
  }
  const rows = statement(db, `${SELECT_WITH_EVENT} WHERE ${where.join(' AND ')} ORDER BY d.id DESC LIMIT ?`)
    .all(...params, query.limit) as DeliveryWithEvent[];
  return rows.map(toDeliveryAttempt);
}

/** One attempt of the client's; undefined for an unknown id or another client's. */
export function findDelivery(db: Db, clientId: string, id: number): DeliveryAttempt | undefined {
  const row = statement(db, `${SELECT_WITH_EVENT} WHERE d.id = ? AND d.client_id = ?`).get(id, clientId) as DeliveryWithEvent | undefined;
  return row ? toDeliveryAttempt(row) : undefined;
}

export function getDeliveryRow(db: Db, id: number): DeliveryRow | undefined {
  return statement(db, 'SELECT * FROM deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
}

export function getEvent(db: Db, id: string): EventRow | undefined {
  return statement(db, 'SELECT * FROM events WHERE id = ?').get(id) as EventRow | undefined;
}

export function activeEvents(db: Db): EventRow[] {
  return statement(db, `SELECT * FROM events WHERE state = 'active' ORDER BY created_at, rowid`).all() as EventRow[];
}

export function insertEvent(db: Db, event: WebhookEvent, clientId: string, dueAt: number): void {
  statement(db, 
    `INSERT INTO events (id, client_id, type, payload, created_at, state, retries_done, next_attempt_at)
     VALUES (?, ?, ?, ?, ?, 'active', 0, ?)`,
  ).run(event.id, clientId, event.type, JSON.stringify(event), event.createdAt, dueAt);
}

/** Inserts a PENDING attempt; returns its id. */
export function insertPendingAttempt(
  db: Db, row: Pick<DeliveryRow, 'event_id' | 'client_id' | 'type' | 'attempt_count' | 'url'>, at: Date,
): number {
  const result = statement(db, 
    `INSERT INTO deliveries (event_id, client_id, type, status, http_status, duration_ms, attempt_count, url, created_at)
     VALUES (?, ?, ?, ?, NULL, 0, ?, ?, ?)`,
  ).run(row.event_id, row.client_id, row.type, DELIVERY_STATUS.PENDING, row.attempt_count, row.url, at.toISOString());
  return Number(result.lastInsertRowid);
}

/** Closes an attempt: SUCCESS without a `failure`, FAILED with one. */
export function closeAttempt(db: Db, id: number, outcome: { failure: string | null; httpStatus: number | null; durationMs: number }): void {
  statement(db, 'UPDATE deliveries SET status = ?, http_status = ?, duration_ms = ?, failure = ? WHERE id = ?').run(
    outcome.failure === null ? DELIVERY_STATUS.SUCCESS : DELIVERY_STATUS.FAILED, outcome.httpStatus, outcome.durationMs, outcome.failure, id,
  );
}

/** The `failure` of an attempt cut short by a stop (or left open by a crash). */
export const STOPPED_FAILURE = 'the server stopped before the attempt finished';

/** Closes as FAILED every PENDING attempt except those still in flight in this process (left by a crash). */
export function closeOrphanedAttempts(db: Db, inFlight: number[]): number {
  const all = statement(db, 'SELECT id FROM deliveries WHERE status = ?').all(DELIVERY_STATUS.PENDING) as { id: number }[];
  const orphans = all.map((r) => r.id).filter((id) => !inFlight.includes(id));
  const close = statement(db, 'UPDATE deliveries SET status = ?, http_status = NULL, failure = ? WHERE id = ?');
  for (const id of orphans) close.run(DELIVERY_STATUS.FAILED, STOPPED_FAILURE, id);
  return orphans.length;
}

export function updateEventSchedule(
  db: Db, id: string, fields: { state: EventState; retriesDone: number; nextAttemptAt: number | null },
): void {
  statement(db, 'UPDATE events SET state = ?, retries_done = ?, next_attempt_at = ? WHERE id = ?')
    .run(fields.state, fields.retriesDone, fields.nextAttemptAt, id);
}
