/**
 * The one backoff formula of the app: `base * 2^step`, capped at `max`, then jittered so that many clients do not
 * retry in step. `step` counts from 0 (the first retry waits about `base`). Every retry delay in the core (the API
 * client's calls, the queue's jobs and archive moves, the watcher's locked files) comes from here.
 */

/** `full`: uniform in [0, delay); `half`: uniform in [delay/2, delay]; `none`: the delay itself. */
export type Jitter = 'full' | 'half' | 'none';

export type Backoff = { baseMs: number; maxMs: number; jitter: Jitter };

export function backoffMs(step: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, step));
  if (backoff.jitter === 'full') return Math.floor(random() * ceiling);
  if (backoff.jitter === 'half') return Math.round(ceiling * (0.5 + random() * 0.5));
  return ceiling;
}
