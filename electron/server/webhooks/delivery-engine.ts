/** STUB, to be replaced by the webhook delivery engine. */
import type { ImportResult } from '../../../shared';
import type { Logger } from '../../lib/logger';
import type { Db } from '../db/database';

export type DeliveryEngine = {
  /** Records the event of a finished import and delivers it to the client's webhook, if one is registered. */
  importFinished(clientId: string, result: ImportResult): void;
  /** Resumes deliveries a stop or crash left pending. */
  start(): void;
  stop(): Promise<void>;
};

export type DeliveryEngineDeps = { db: Db; logger: Logger; retryDelaysMs: number[]; timeoutMs: number };

export function createDeliveryEngine(_deps: DeliveryEngineDeps): DeliveryEngine {
  return { importFinished: () => undefined, start: () => undefined, stop: () => Promise.resolve() };
}
