/**
 * Collects events and hands them over once per frame: a thousand files going through send thousands of events, and one
 * cache update per frame keeps the page free of long tasks where one per event would not.
 */
export type Schedule = (run: () => void) => void;

/** The next animation frame, or a short timer when frames are not running (a hidden window). */
export const nextFrame: Schedule = (run) => {
  let done = false;
  const once = () => {
    if (!done) { done = true; run(); }
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(once);
  setTimeout(once, 100);
};

export function createEventBatcher<T>(flush: (items: T[]) => void, schedule: Schedule = nextFrame) {
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
