/**
 * Collects events and hands them over a few times a second: a thousand files going through send thousands of events,
 * and one cache update per interval keeps the page free of long tasks where one per event (or even one per frame) did
 * not. Five updates a second still reads as live to a person watching a progress bar.
 */
export type Schedule = (run: () => void) => void;

export const FLUSH_INTERVAL_MS = 200;

export const afterInterval: Schedule = (run) => {
  setTimeout(run, FLUSH_INTERVAL_MS);
};

export function createEventBatcher<T>(flush: (items: T[]) => void, schedule: Schedule = afterInterval) {
  let pending: T[] = [];
  let scheduled = false;
  let closed = false;
  return {
    push(item: T) {
      if (closed) return;
      pending.push(item);
      if (scheduled) return;
      scheduled = true;
      schedule(() => {
        scheduled = false;
        const items = pending;
        pending = [];
        if (!closed && items.length > 0) flush(items);
      });
    },
    close() {
      closed = true;
      pending = [];
    },
  };
}
