/** STUB, to be replaced by the webhook delivery engine. */
import type { DeliveryAttempt, ImportResult } from '../../../shared';
import type { Logger } from '../../lib/logger';
import type { Db } from '../db/database';

export type DeliveryEngine = {
  /** Records the event of a finished import and delivers it to the client's webhook, if one is registered. */
  importFinished(clientId: string, result: ImportResult): void;
  /**
   * Sends the event of an earlier delivery attempt again, now, as a new attempt record (type RETRY)
   * outside the automatic retry budget; undefined for an unknown id or another client's.
   */
  redeliver(clientId: string, deliveryId: number): DeliveryAttempt | undefined;
  /** Resolves when no attempt is in flight and none is due within the next moment (tests). */
  idle(): Promise<void>;
  /** Resumes deliveries a stop or crash left pending. */
  start(): void;
  stop(): Promise<void>;
};

export type DeliveryEngineDeps = { db: Db; logger: Logger; retryDelaysMs: number[]; timeoutMs: number };

export function createDeliveryEngine(_deps: DeliveryEngineDeps): DeliveryEngine {
  return { importFinished: () => undefined, redeliver: () => undefined, idle: () => Promise.resolve(), start: () => undefined, stop: () => Promise.resolve() };
}
