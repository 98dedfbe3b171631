/**
 * Group commit: writes from concurrent requests run in one transaction per turn of the event loop. Each caller
 * still gets its answer only after its own write is committed (so a 201 is never sent for an unsaved import),
 * but ten requests pay for one commit instead of ten. If the shared transaction fails, each write is retried
 * on its own, so one bad write never fails its neighbours.
 */
import type { Db } from './database';

type Pending = { write: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };

export type GroupCommit = { run<T>(write: () => T): Promise<T> };

export function createGroupCommit(db: Db): GroupCommit {
  let pending: Pending[] = [];

  const flush = () => {
    const batch = pending;
    pending = [];
    let results: unknown[];
    try {
      results = db.transaction(() => batch.map((p) => p.write()))();
    } catch {
      for (const p of batch) {
        try {
          p.resolve(p.write());
        } catch (error) {
          p.reject(error);
        }
      }
      return;
    }
    batch.forEach((p, i) => p.resolve(results[i]));
  };

  return {
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      });
    },
  };
}
