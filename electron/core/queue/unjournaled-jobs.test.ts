/**
 * A job held back because its failure could not be journaled (the data folder's disk is full) must be tried again once
 * its hold ends. A pass of the queue asks whether the job is held and when to wake for it: asked at two instants, a
 * hold that ended between them was neither tried nor woken for, and the file stayed "uploading" after space returned
 * until something else woke the queue (journal-full-upload.test.ts failed so on a loaded machine).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import type { Job } from './job-types';
import { monotonic, trackUnjournaled } from './unjournaled-jobs';

it('wakes the queue for a hold still running as of the pass\'s instant, even when the pass asks after it ended', async () => {
  const tracker = trackUnjournaled({
    journalPath: '/data/payroll/journal.db',
    retry: { baseMs: 20, maxMs: 20, failAfter: 5, giveUp: false },
    random: () => 0.5,
    logger: createLogger('test', () => {}),
    emit: () => {},
    over: () => {},
  });
  const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL', rawCode: 13 });
  tracker.failed({ id: 7, name: 'census-full.csv' } as Job, full);
  // The pass begins while the job is held...
  const pass = monotonic();
  const left = tracker.left(7, pass);
  expect(left).toBeGreaterThan(0);
  // ...and has not asked when to wake before the hold is over (a slow pass on a loaded machine).
  await sleep(left + 30);
  expect(tracker.left(7, pass)).toBe(left);
  expect(tracker.nextDue(1_000_000, pass)).toBe(1_000_000 + left);
  // A pass that begins after the hold tries the job: it is not held, and nothing is waited for.
  expect(tracker.left(7, monotonic())).toBeLessThanOrEqual(0);
  expect(tracker.nextDue(1_000_000, monotonic())).toBeUndefined();
});
