/** What every pipeline step is handed: the journal, the clock, the settings and the common transitions. */
import type { Settings } from '../../../shared/settings.schema';
import type { Logger } from '../../lib/logger';
import type { RetryPolicy } from './backoff';
import { retryDelayMs } from './backoff';
import { isOutcome, type Job, type JobProgress, type JobService, type QueueEvents, type ResumeState } from './job-types';
import type { Journal, JobPatch } from './journal';
import type { QueueApi } from './queue-api';
import { printableName } from '../../lib/printable-name';

export const DISAPPEARED = 'the file disappeared before it was uploaded';
/**
 * Why a job ends as not sent from here because another uploader of the same shared folder, sending to the same
 * service as the same client, took its claimed file over: an outcome, not a refusal and not a loss.
 */
export const takenOverNote = (by: string): string =>
  `another uploader ("${by}") took this file over while this one was stopped or silent, and sends it to the same `
  + 'service as the same client: it is in that uploader\'s history and filed away by it, so nothing was sent from here';

export type QueueCore = {
  journal: Journal;
  api: QueueApi;
  /** The service (and client) this queue sends to, as the journal names it; absent for a queue tried out on its own. */
  service?: JobService;
  settings: () => Settings;
  logger: Logger;
  now: () => number;
  retry: RetryPolicy;
  random: () => number;
  /** Aborted by stop(): in-flight PUTs end, and their state is left as journaled. */
  signal: AbortSignal;
  emit: <K extends keyof QueueEvents>(event: K, payload: QueueEvents[K]) => void;
  /** How long a filed file is watched for late writes (filed-watch.ts); absent: from the settings (tests set it). */
  afterFilingMs?: number;
  /** Journals the change, then announces it (inside atomically(): once everything is committed). */
  write(id: number, patch: JobPatch): Job;
  /**
   * Runs `fn`'s writes as one journal transaction (one disk sync for many jobs); their `job` events go out after the
   * commit, and not at all when `fn` throws (nothing was written). Nested calls join the outer one.
   */
  atomically<T>(fn: () => T): T;
  /** A whole-file refusal: state rejected with the reason; the archive step moves it to rejected/. */
  reject(job: Job, reason: string, extra?: JobPatch): Job;
  /** The file is gone: rejected, and nothing to move. */
  disappeared(job: Job): Job;
  /** A transient failure: waiting, retried at a backoff delay from `resume`. */
  wait(job: Job, resume: ResumeState, reason: string, minDelayMs?: number): Job;
  progress(p: JobProgress): void;
  /** Which uploader took the job's claimed file over (see UploadQueueOptions.takenOver); undefined: nobody. */
  takenOver?: (job: Job) => string | undefined;
};

export function createCoreTransitions(
  core: Omit<QueueCore, 'write' | 'atomically' | 'reject' | 'disappeared' | 'wait' | 'progress'>,
): QueueCore {
  let held: Job[] | undefined; // events of writes not yet committed
  const write = (id: number, patch: JobPatch): Job => {
    // A job that reaches its outcome never uses its upload address again, and the address's signature would let
    // whoever reads the journal upload there until it expires: it is forgotten.
    const ended = patch.state !== undefined && patch.state !== null && isOutcome(patch.state) ? { ...patch, grantUrl: null } : patch;
    const job = core.journal.update(id, ended, core.now());
    if (held) held.push(job);
    else core.emit('job', job);
    return job;
  };
  const atomically = <T>(fn: () => T): T => {
    if (held) return fn();
    held = [];
    let committed: Job[];
    let result: T;
    try {
      result = core.journal.transaction(fn);
      committed = held;
    } finally {
      held = undefined;
    }
    for (const job of committed) core.emit('job', job);
    return result;
  };
  return {
    ...core,
    write,
    atomically,
    reject: (job, reason, extra = {}) => {
      core.logger.warn(`${printableName(job.name)}: rejected: ${reason}`);
      return write(job.id, { ...extra, state: 'rejected', lastError: reason, resumeState: null, nextAttemptAt: null });
    },
    disappeared: (job) => {
      const at = core.now();
      const by = core.takenOver?.(job);
      if (by !== undefined) {
        // Not refused and not lost: the same service gets the file from the other uploader. Filed as a duplicate
        // (this job is one of that uploader's job), with nothing moved.
        const note = takenOverNote(by);
        core.logger.warn(`${printableName(job.name)}: ${note}`);
        const done = write(job.id, { state: 'duplicate', lastError: note, resumeState: null, nextAttemptAt: null, archivedAt: at });
        core.emit('result', done);
        return done;
      }
      core.logger.warn(`${printableName(job.name)}: ${DISAPPEARED}`);
      return write(job.id, { state: 'rejected', lastError: DISAPPEARED, resumeState: null, nextAttemptAt: null, archivedAt: at });
    },
    wait: (job, resume, reason, minDelayMs = 0) => {
      const attempts = job.attempts + 1;
      const delay = Math.max(minDelayMs, retryDelayMs(attempts, core.retry, core.random));
      const waiting = write(job.id, { state: 'waiting', resumeState: resume, attempts, lastError: reason, nextAttemptAt: core.now() + delay });
      // Said once journaled: a wait the journal could not take (a full disk) is no wait, and is said otherwise.
      core.logger.info(`${printableName(job.name)}: ${reason}; try ${attempts} failed, next in ${Math.round(delay / 1000)} s`);
      return waiting;
    },
    progress: (p) => core.emit('progress', p),
  };
}
