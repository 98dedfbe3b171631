/** Retry timing of the queue: the app's one backoff (electron/lib/backoff.ts) with 50..100 % jitter. */
import { backoffMs } from '../../lib/backoff';

export type RetryPolicy = {
  /** Delay before the first retry. Default 1 s. */
  baseMs: number;
  /** Longest delay. Default 5 min. */
  maxMs: number;
  /**
   * After this many failed tries of one step a job counts as failed for `failures()` (a `--once` run exits non-zero).
   * In watch mode the job keeps waiting and retrying; only `giveUp` stops it.
   */
  failAfter: number;
  /** Stop retrying jobs that reached `failAfter` (for one-shot runs). Default false. */
  giveUp: boolean;
};

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 1_000, maxMs: 300_000, failAfter: 5, giveUp: false };

/** Delay before retry number `attempt` (1-based): base * 2^(attempt-1), capped, then a random 50..100 %. */
export function retryDelayMs(attempt: number, policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>, random: () => number = Math.random): number {
  return backoffMs(attempt - 1, { baseMs: policy.baseMs, maxMs: policy.maxMs, jitter: 'half' }, random);
}
