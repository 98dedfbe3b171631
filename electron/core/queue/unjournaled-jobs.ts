/**
 * Jobs whose step failed and whose failure could not be journaled either (the disk of the data folder is full): the
 * journal still holds the job's last committed state, which says nothing about a wait, so without a hold kept here the
 * pump would start the same step again at once, thousands of times a second, each with a log line and a notice to
 * every window. Each such job is held back in memory with the queue's backoff (growing, on the monotonic clock) until
 * one of its steps ends journaled; then it goes on from what the journal holds. Nothing is called uploaded or lost.
 * The problem is said once, in words that name the data folder's disk and what to do, and again only when it changes
 * or after a long while; it is said to be over once no job is held any more.
 */
import { printableName } from '../../lib/printable-name';
import type { Logger } from '../../lib/logger';
import { LastingError } from '../notices/lasting-error';
import { retryDelayMs, type RetryPolicy } from './backoff';
import type { Job, QueueEvents } from './job-types';
import { journalWriteProblem } from './journal-errors';

/** How long the same problem goes unsaid: a clerk who comes back to a long-full disk still learns of it. */
const SAY_AGAIN_MS = 30 * 60_000;

/** Whether `error` is SQLite's, that is the journal's: the queue's steps use no other database. */
export const isJournalError = (error: unknown): boolean => typeof (error as { rawCode?: unknown } | undefined)?.rawCode === 'number';

export type UnjournaledJobs = {
  /** The failure of `job`'s step could not be journaled (`failure`): it is held back, and that is said if it is news. */
  failed(job: Job, failure: unknown): void;
  /**
   * Milliseconds until a held job may be tried again (0 or less: now, or not held), as of `at` on the monotonic clock
   * (`monotonic()`). A pass of the queue asks this and nextDue as of one instant: asked at two, a hold that ends between
   * them would be neither tried (still held at the first) nor woken for (over at the second), and the job would wait
   * until something else woke the queue.
   */
  left(id: number, at: number): number;
  /** A held job's tries in a row that could not be journaled, and why the last could not be (undefined: not held). */
  hold(id: number): { tries: number; problem: string } | undefined;
  /** The soonest time (epoch ms, from `now`) a job held back as of `at` (monotonic) may be tried again; undefined: none is. */
  nextDue(now: number, at: number): number | undefined;
  /** A step of the job ended journaled: it is no longer held; once none is, the problem is said to be over. */
  journaled(id: number): void;
};

export type UnjournaledOptions = {
  /** The journal file, named in the words. */
  journalPath: string;
  retry: RetryPolicy;
  random: () => number;
  logger: Logger;
  /** The queue's emit (a LastingError lasts until `over` with its end). */
  emit: <K extends keyof QueueEvents>(event: K, payload: QueueEvents[K]) => void;
  over: (end: 'journal-written') => void;
};

/** The clock holds are kept on: a wall clock set back while a job is held must not hold it longer. */
export const monotonic = (): number => performance.now();

export function trackUnjournaled(options: UnjournaledOptions): UnjournaledJobs {
  const { logger } = options;
  /** Per held job: its tries in a row that could not be journaled, when (monotonic) it may go again, and why. */
  const held = new Map<number, { tries: number; due: number; problem: string }>();
  /** What was said last, and when (monotonic): the same problem is not said again at every try. */
  let said: { problem: string; at: number } | undefined;

  return {
    failed(job, failure) {
      const tries = (held.get(job.id)?.tries ?? 0) + 1;
      const delay = retryDelayMs(tries, options.retry, options.random);
      const t = monotonic();
      const problem = journalWriteProblem(options.journalPath, failure);
      held.set(job.id, { tries, due: t + delay, problem });
      const name = printableName(job.name);
      if (said && said.problem === problem && t - said.at < SAY_AGAIN_MS) {
        logger.info(`${name} still waits for the upload journal to be written (try ${tries} failed); next try in ${Math.max(1, Math.round(delay / 1000))} s`);
        return;
      }
      said = { problem, at: t };
      const message = `uploads cannot go on for now (${name} first): ${problem}. `
        + 'The files wait where they are, where nothing is lost, and go on from where they stopped once the journal can be written again.';
      logger.error(message);
      options.emit('error', new LastingError(message, 'journal-written', { cause: failure }));
    },
    left(id, at) {
      const hold = held.get(id);
      return hold ? hold.due - at : 0;
    },
    hold(id) {
      const hold = held.get(id);
      return hold ? { tries: hold.tries, problem: hold.problem } : undefined;
    },
    nextDue(now, at) {
      // Only holds still running: a job whose hold is over waits for its step to start (a free slot), not for a time.
      const lefts = [...held.values()].map((hold) => hold.due - at).filter((left) => left > 0);
      return lefts.length > 0 ? now + Math.min(...lefts) : undefined;
    },
    journaled(id) {
      if (!held.delete(id) || held.size > 0 || !said) return;
      said = undefined;
      const message = 'the upload journal can be written again: the uploads that waited go on';
      logger.info(message);
      options.over('journal-written');
      options.emit('notice', message);
    },
  };
}
