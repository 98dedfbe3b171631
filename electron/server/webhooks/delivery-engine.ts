/**
 * Webhook delivery engine: one event per finished import, one attempt record per try, up to 5 retries on
 * the configured delays. Every event has its own timer and attempts run concurrently, so one event's
 * failures never delay another's. The schedule is kept in the events table and resumed at start.
 */
import { randomBytes } from 'node:crypto';
import type { DeliveryAttempt, ImportResult, WebhookEvent } from '../../../shared';
import { DELIVERY_TYPE, LIMITS, webhookEventSchema } from '../../../shared';
import type { Logger } from '../../lib/logger';
import { findClient } from '../auth/clients';
import type { Db } from '../db/database';
import type { DeliveryFailure } from '../options';
import { statement } from '../db/database';
import type { EventRow } from './deliveries-repo';
import {
  activeEvents, closeAttempt, closeOrphanedAttempts, findDelivery, getDeliveryRow, getEvent, insertEvent,
  insertPendingAttempt, updateEventSchedule,
} from './deliveries-repo';
import { failureOf, sendWebhook, webhookHeaders } from './webhook-sender';

/**
 * What a redelivery did: the new attempt, or why there is none: `unknown` (no such attempt of this client's, or the
 * engine stopped) or `no-webhook` (the client has no webhook registered any more: nothing is sent or recorded).
 */
export type Redelivery = { attempt: DeliveryAttempt } | { refused: 'unknown' | 'no-webhook' };

export type DeliveryEngine = {
  /** Records the event of a finished import and delivers it to the client's webhook, if one is registered. */
  importFinished(clientId: string, result: ImportResult): void;
  /**
   * Sends the event of an earlier delivery attempt again, now, to the client's webhook as registered now, as a new
   * attempt record (type RETRY): the event's next retry, brought forward (see redeliveryCount). A 2xx marks the event
   * delivered and ends its retries.
   */
  redeliver(clientId: string, deliveryId: number): Redelivery;
  /** Resolves when no attempt is in flight (tests). */
  idle(): Promise<void>;
  /** Resumes deliveries a stop or crash left pending. */
  start(): void;
  /** Clears the timers and aborts attempts in flight; their events resume at the next start. */
  stop(): Promise<void>;
};

export type DeliveryEngineDeps = {
  db: Db; logger: Logger; retryDelaysMs: number[]; timeoutMs: number;
  /**
   * The running server's --allow-remote-webhooks. Without it (the default) an attempt to a URL that does not
   * name this machine is refused without connecting and recorded as FAILED, whenever the URL was registered.
   */
  allowRemoteWebhooks?: boolean;
  /** Told once when an event's last retry failed and none is left: it is FAILED. */
  gaveUp?: (failure: DeliveryFailure) => void;
};

/** The webhook event of a finished import (docs/service-decisions.md §6); undefined while it is not finished. */
export function eventOfImport(result: ImportResult, now = new Date()): WebhookEvent | undefined {
  if (result.status !== 'PROCESSED' && result.status !== 'REJECTED') return undefined;
  // A rejected file has no per-record errors; its reason is the one thing the receiver needs to know.
  const errors = result.errors.length === 0 && result.reason ? [{ message: result.reason }] : result.errors;
  return webhookEventSchema.parse({
    id: `msg_${randomBytes(16).toString('base64url')}`,
    type: result.status === 'PROCESSED' ? 'import.processed' : 'import.rejected',
    createdAt: now.toISOString(),
    data: {
      importId: result.id,
      kind: result.kind,
      source: result.source,
      ...(result.fileName ? { fileName: result.fileName } : {}),
      status: result.status,
      acceptedRecords: result.acceptedRecords,
      rejectedRecords: result.rejectedRecords,
      errors,
    },
  });
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The attemptCount of a redelivery. It is a retry (type RETRY), and a RETRY record counts the retries performed so far,
 * itself included, 1..5 (docs/service-decisions.md §6): one more than the retries done (automatic or asked for), at
 * most 5. It is one of the 5: an event still being retried takes it as its next retry, sent now, so the automatic
 * retries after it count on from it and one event's counts never repeat while retries remain. Only a redelivery of an
 * event whose retries are over (delivered, FAILED, cancelled) past the fifth carries 5 again.
 */
const redeliveryCount = (retriesDone: number) => Math.min(retriesDone + 1, LIMITS.deliveryRetries);

export function createDeliveryEngine(deps: DeliveryEngineDeps): DeliveryEngine {
  const { db, logger } = deps;
  const timers = new Map<string, NodeJS.Timeout>();
  /** Events whose automatic attempt is in flight. */
  const autoInFlight = new Set<string>();
  const inFlight = new Map<number, { eventId: string; done: Promise<void>; abort: AbortController }>();
  let running = false;
  let stopped = false;

  const delayBefore = (retry: number) => {
    const delays = deps.retryDelaysMs;
    return Math.max(0, delays[retry - 1] ?? delays[delays.length - 1] ?? 0);
  };

  /** Whether an attempt of the event other than `except` is in flight (automatic or a redelivery). */
  const othersInFlight = (eventId: string, except?: number) =>
    [...inFlight].some(([id, flight]) => id !== except && flight.eventId === eventId);

  /**
   * When each event's next attempt is due on the monotonic clock (performance.now()), which a wall clock set back (NTP
   * correcting a fast clock, a time-zone fix) does not move: a retry must not wait for the size of the jump. The journaled
   * next_attempt_at (wall time) is what a restart resumes from; read without an entry here (an earlier run's schedule)
   * it is never taken as further away than the delay it was scheduled with. An event is due at its journaled time or
   * once that delay has passed, whichever comes first.
   */
  const dueAt = new Map<string, { at: number; mono: number }>();

  /** The delay the event's next attempt was scheduled with: none for its first (due when recorded), else its retry's. */
  const scheduledDelay = (event: EventRow) => (hasAttempts(event.id) ? delayBefore(event.retries_done + 1) : 0);

  /** Milliseconds until the event's next attempt is due (0 or less: due now); it must have one (next_attempt_at set). */
  function dueIn(event: EventRow): number {
    const at = event.next_attempt_at ?? 0;
    const wall = at - Date.now();
    let seen = dueAt.get(event.id);
    if (!seen || seen.at !== at) dueAt.set(event.id, (seen = { at, mono: performance.now() + Math.min(wall, scheduledDelay(event)) }));
    return Math.min(wall, seen.mono - performance.now());
  }

  /** The event's state after a failed attempt (at `now`), written in the caller's transaction. */
  function scheduleAfterFailure(event: EventRow, now: number, url?: string): void {
    if (event.retries_done >= LIMITS.deliveryRetries) {
      updateEventSchedule(db, event.id, { state: 'failed', retriesDone: event.retries_done, nextAttemptAt: null });
      logger.warn(`event ${event.id}: every attempt failed; it stays FAILED`);
      if (url !== undefined) deps.gaveUp?.({ clientId: event.client_id, eventId: event.id, eventType: event.type, url });
      return;
    }
    const delay = delayBefore(event.retries_done + 1);
    const next = now + delay;
    updateEventSchedule(db, event.id, { state: 'active', retriesDone: event.retries_done, nextAttemptAt: next });
    dueAt.set(event.id, { at: next, mono: performance.now() + delay });
  }

  /** Sets the event's timer to its next attempt; clears it when there is none (delivered, over, or in flight). */
  function arm(eventId: string): void {
    clearTimeout(timers.get(eventId));
    timers.delete(eventId);
    const event = getEvent(db, eventId);
    if (!running || !event || event.state !== 'active' || event.next_attempt_at === null) {
      dueAt.delete(eventId);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(eventId);
      attemptAutomatically(eventId);
    }, Math.min(MAX_TIMER_MS, Math.max(0, dueIn(event))));
    timers.set(eventId, timer);
  }

  /**
   * Sends one attempt whose PENDING row exists; the row's outcome and `record`'s writes share one
   * transaction, so a crash never leaves a closed row with an event still marked in flight.
   */
  function launch(
    deliveryId: number, send: { url: string; secret: string; eventId: string; body: string },
    record: (success: boolean) => void, after: () => void = () => undefined,
  ): void {
    const abort = new AbortController();
    const done = sendWebhook({
      url: send.url, body: send.body, timeoutMs: deps.timeoutMs, signal: abort.signal, allowRemote: deps.allowRemoteWebhooks === true,
      headers: webhookHeaders(send.secret, send.eventId, send.body, new Date()),
    }).then((outcome) => {
      const failure = failureOf(outcome, deps.timeoutMs);
      const success = failure === null;
      if (outcome.kind === 'refused') logger.warn(`attempt ${deliveryId} of ${send.eventId} was not sent: ${outcome.detail ?? 'refused'}`);
      else logger.debug(`attempt ${deliveryId} of ${send.eventId}: ${outcome.kind} ${outcome.httpStatus ?? '-'} in ${outcome.durationMs} ms${outcome.detail ? ` (${outcome.detail})` : ''}`);
      db.transaction(() => {
        closeAttempt(db, deliveryId, { failure, httpStatus: outcome.httpStatus, durationMs: outcome.durationMs });
        record(success);
      })();
      after();
    }).catch((error: unknown) => {
      logger.error(`attempt ${deliveryId} of ${send.eventId} could not be recorded: ${(error as Error).stack ?? String(error)}`);
    }).finally(() => inFlight.delete(deliveryId));
    inFlight.set(deliveryId, { eventId: send.eventId, done, abort });
  }

  /**
   * The event's state after one of its attempts (automatic or a redelivery) ended, in launch's transaction. Any 2xx
   * delivers it, which ends its retries (a pending timer is cleared by arm). A failure moves the schedule on only
   * for an event still being retried, and only once no other attempt of it is in flight (that one's outcome decides
   * then), read afresh: a redelivery may have counted a retry since this attempt began.
   */
  function settle(eventId: string, deliveryId: number, success: boolean, url: string): void {
    const event = getEvent(db, eventId);
    if (!event) return;
    if (success) {
      updateEventSchedule(db, eventId, { state: 'delivered', retriesDone: event.retries_done, nextAttemptAt: null });
      return;
    }
    if (event.state !== 'active' || othersInFlight(eventId, deliveryId)) return;
    scheduleAfterFailure(event, Date.now(), url);
  }

  function attemptAutomatically(eventId: string): void {
    const event = getEvent(db, eventId);
    // next_attempt_at NULL: an attempt is in flight (automatic or a redelivery); its outcome sets the next one.
    if (!running || !event || event.state !== 'active' || event.next_attempt_at === null || autoInFlight.has(eventId)) return;
    const client = findClient(db, event.client_id);
    const url = client?.webhookUrl;
    const secret = client?.webhookSecret;
    if (!url || !secret) {
      updateEventSchedule(db, eventId, { state: 'cancelled', retriesDone: event.retries_done, nextAttemptAt: null });
      logger.warn(`event ${eventId}: client ${event.client_id} has no webhook any more; delivery cancelled`);
      return;
    }
    if (dueIn(event) > 0) {
      arm(eventId); // a timer longer than setTimeout allows fires early
      return;
    }
    dueAt.delete(eventId);
    const isFirst = !hasAttempts(eventId);
    const retriesDone = isFirst ? 0 : event.retries_done + 1;
    // The PENDING row and the in-flight marker (next_attempt_at NULL) are written together, so a crash
    // leaves either a due event or exactly one PENDING row for start() to close.
    const deliveryId = db.transaction(() => {
      updateEventSchedule(db, eventId, { state: 'active', retriesDone, nextAttemptAt: null });
      return insertPendingAttempt(db, {
        event_id: eventId, client_id: event.client_id, type: isFirst ? DELIVERY_TYPE.NEW : DELIVERY_TYPE.RETRY,
        attempt_count: retriesDone, url,
      }, new Date());
    })();
    autoInFlight.add(eventId);
    launch(deliveryId, { url, secret, eventId, body: event.payload }, (success) => settle(eventId, deliveryId, success, url), () => {
      autoInFlight.delete(eventId);
      arm(eventId);
    });
    // Also when recording failed, so the event is not stuck as in flight.
    void inFlight.get(deliveryId)?.done.finally(() => autoInFlight.delete(eventId));
  }

  function hasAttempts(eventId: string): boolean {
    return statement(db, 'SELECT 1 FROM deliveries WHERE event_id = ? LIMIT 1').get(eventId) !== undefined;
  }

  return {
    importFinished(clientId, result) {
      try {
        const client = findClient(db, clientId);
        if (!client?.webhookUrl || !client.webhookSecret) return; // no webhook registered: nothing to record
        const event = eventOfImport(result);
        if (!event) return;
        insertEvent(db, event, clientId, Date.now());
        logger.info(`event ${event.id} (${event.type}) of import ${result.id} for ${clientId}`);
        attemptAutomatically(event.id); // before start() the event waits, due, for start() to send it
      } catch (error) {
        logger.error(`the event of import ${result.id} could not be recorded: ${(error as Error).stack ?? String(error)}`);
      }
    },

    redeliver(clientId, deliveryId) {
      const previous = getDeliveryRow(db, deliveryId);
      if (stopped || !previous || previous.client_id !== clientId) return { refused: 'unknown' };
      const event = getEvent(db, previous.event_id);
      if (!event) return { refused: 'unknown' };
      const client = findClient(db, clientId);
      const url = client?.webhookUrl;
      const secret = client?.webhookSecret;
      // A client without a webhook gets no events and no delivery records (docs/service-decisions.md §6). The check
      // and the insert below run in one synchronous step, so no removal of the registration comes between them; an
      // attempt recorded just before a removal is sent to the URL it was recorded with, as an automatic one is.
      if (!url || !secret) return { refused: 'no-webhook' };
      const retriesDone = redeliveryCount(event.retries_done);
      // Counted and, for an event still being retried, marked in flight (next_attempt_at NULL) with its PENDING row:
      // the automatic retries wait for its outcome and go on from it (a crash leaves it for start() to close).
      const id = db.transaction(() => {
        const nextAttemptAt = event.state === 'active' ? null : event.next_attempt_at;
        updateEventSchedule(db, event.id, { state: event.state, retriesDone, nextAttemptAt });
        return insertPendingAttempt(db, {
          event_id: event.id, client_id: clientId, type: DELIVERY_TYPE.RETRY, attempt_count: retriesDone, url,
        }, new Date());
      })();
      arm(event.id); // its timer is cleared: the schedule is taken up again after this attempt
      const attempt = findDelivery(db, clientId, id);
      launch(id, { url, secret, eventId: event.id, body: event.payload }, (success) => settle(event.id, id, success, url), () => arm(event.id));
      logger.info(`redelivery ${id} of event ${event.id} (from attempt ${deliveryId})`);
      return attempt ? { attempt } : { refused: 'unknown' };
    },

    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight.values()].map((f) => f.done));
    },

    start() {
      if (running) return;
      running = true;
      stopped = false;
      const closed = closeOrphanedAttempts(db, [...inFlight.keys()]);
      if (closed > 0) logger.warn(`closed ${closed} attempt(s) left PENDING by an earlier run as FAILED`);
      const now = Date.now();
      for (const event of activeEvents(db)) {
        if (othersInFlight(event.id) || timers.has(event.id)) continue;
        // next_attempt_at NULL: an attempt (automatic or a redelivery) was cut off; it counts as failed and the schedule goes on.
        if (event.next_attempt_at === null) scheduleAfterFailure(event, now);
        arm(event.id);
      }
    },

    async stop() {
      running = false;
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      dueAt.clear();
      for (const flight of inFlight.values()) flight.abort.abort();
      await Promise.allSettled([...inFlight.values()].map((f) => f.done));
    },
  };
}
