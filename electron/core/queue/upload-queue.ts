/**
 * The durable upload queue (docs/service-decisions.md §4 and §9): watched files go found -> hashing -> granting ->
 * uploading -> uploaded/rejected/duplicate -> archived, every step journaled before it is acted on. The steps look at
 * the unfinished jobs through the journal's memory copy (journal.liveJobs), never by reading SQLite.
 */
import { lstatSync } from 'node:fs';
import type { ImportResult, RecordKind } from '../../../shared';
import type { HeldReason, NoticeEnd } from '../../../shared/bridge';
import { LIMITS } from '../../../shared';
import { DEFAULT_SETTINGS, PROFILE_TITLES, type FileTypeRule, type Settings } from '../../../shared/settings.schema';
import { createLogger, type Logger } from '../../lib/logger';
import { createTypedEmitter, type TypedEmitter } from '../../lib/typed-emitter';
import { archiveFailed, archiveJob } from './archive-step';
import { censusBeforeReceipts, censusFirst, censusFirstReason, type CensusFirst } from './census-first';
import { LastingError } from '../notices/lasting-error';
import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './backoff';
import { localDay } from './file-facts';
import { checkFiledFiles } from './filed-watch';
import { describeError } from '../../lib/fs-errors';
import { printableName } from '../../lib/printable-name';
import { requestGrants } from './grant-step';
import { keepImportResult, resultsNotKept, type ImportOf, type ResultsNotKept } from './import-results';
import { inspectFile } from './inspect-step';
import { isOutcome, type BatchJob, type BatchResult, type Job, type JobService, type QueueEvents, type StableFile } from './job-types';
import { acquireProcessLock, type ProcessLock } from '../../lib/process-lock';
import { join } from 'node:path';
import { JOURNAL_FILE, openJournal } from './journal';
import { journalWriteProblem } from './journal-errors';
import { sendManualBatch } from './manual-batches';
import type { QueueApi } from './queue-api';
import { createCoreTransitions, type QueueCore } from './queue-core';
import { isJournalError, monotonic, trackUnjournaled } from './unjournaled-jobs';
import { uploadJob } from './upload-step';

export type UploadQueueOptions = {
  /** Folder of the journal (upload-queue.sqlite). */
  dataDir: string;
  api: QueueApi;
  /** Read at every step, so changed settings apply to the next file. */
  settings: () => Settings;
  logger?: Logger;
  /** Clock in epoch milliseconds (tests). */
  now?: () => number;
  retry?: Partial<RetryPolicy>;
  /** Jitter source (tests). */
  random?: () => number;
  /** Files read before a handshake is sent anyway while others are still being read. Default 5 s. */
  grantBatchWaitMs?: number;
  /**
   * The service this queue sends to. New jobs are journaled with it, and only jobs queued for it are ever worked on;
   * jobs of another service wait for a run pointed there. Absent (tests of the queue alone): every job.
   */
  service?: JobService;
  /**
   * false: file jobs are neither taken nor resumed (the `send` command), no lock is taken; only manual batches are
   * sent. Default true.
   */
  files?: boolean;
  /**
   * true when the queue is opened again within one run, because its service changed (another environment, the
   * built-in server started again): unfinished jobs are then said to be taken up, not resumed "from the last run".
   */
  reopened?: boolean;
  /** How long a filed file is watched for rows written late (filed-watch.ts). Default: from the settings. */
  afterFilingMs?: number;
  /**
   * Which uploader, if any, took over the claimed file of this job while this one was stopped or silent
   * (FolderClaims.takenOver): a file gone for that reason is not called disappeared.
   */
  takenOver?: (job: Job) => string | undefined;
};

export type UploadQueue = {
  /**
   * Journals a stable file (state found). Returns the job, or undefined when this version of the file (same path,
   * size and mtime) is already known. A new version of a file still in the queue restarts that job.
   */
  /**
   * `forService`: the service and client a new job is for when it is not this queue's (a refused file the clerk put
   * back stays with the one it was refused for); it then waits for a queue of that service.
   */
  add(file: StableFile, forService?: JobService): Job | undefined;
  /**
   * Takes the data folder's lock (LockedError when another process holds it), resumes every unfinished job of this
   * service from its journaled state, then works until stop(). Each start is a fresh retry budget.
   */
  start(): Promise<void>;
  /**
   * Journals a file that is refused without being read (a symbolic link, a pipe): rejected with `reason`, then moved
   * to rejected/ (the link itself, never its target).
   */
  refuse(file: { path: string; name: string; claimedFrom?: string; identity?: string }, reason: string): Job;
  /** Whether an unfinished job already holds this path. */
  knows(path: string): boolean;
  /**
   * Unfinished jobs this queue works on (not yet filed away), oldest first: those of its service, and finished ones of
   * any service whose filing is left.
   */
  unfinished(): Job[];
  /**
   * Stops work and closes the journal. In-flight uploads are aborted and resumed at the next start; manual batches
   * being sent are not (sent again, their records could be imported twice): it waits for their outcome, journaled.
   */
  stop(): Promise<void>;
  /** True when nothing is in progress or due: every job is archived, or waiting after giving up (retry.giveUp). */
  isIdle(): boolean;
  /** Resolves once isIdle() holds. */
  idle(): Promise<void>;
  /**
   * Jobs rejected since start(), and unfinished jobs that failed at least retry.failAfter times; with retry.giveUp,
   * also those whose steps could not be journaled that many times in a row (`notJournaled`: why, in words).
   */
  failures(): Failure[];
  /** Validates, journals and sends a manual JSON batch (see sendManualBatch). */
  sendBatch(kind: RecordKind, records: unknown): Promise<BatchResult>;
  /** Jobs newest first. */
  jobs(limit?: number): Job[];
  job(id: number): Job | undefined;
  batches(limit?: number): BatchJob[];
  /**
   * A job waiting to retry (or to be filed away) tries again now, also one held for a missing scope (no longer held);
   * undefined when it is not waiting.
   */
  retryNow(id: number): Job | undefined;
  /**
   * The credentials of this queue's client changed (saved in Settings): the files held until the clerk acts are tried
   * again now, so a file held because the service refused the old ones (or there were none) goes on by itself; so
   * does a file whose handshake was under way with the old ones: refused, it is asked for again at once, not held.
   */
  retryHeld(): void;
  /**
   * What holds every file of this queue until the clerk acts, since the service last refused a handshake for it: the
   * client's credentials (refused, or none) or its scope to upload files. A new file would be held too. undefined once
   * a handshake goes through, and before any was refused; said by the `held` event whenever it changes.
   */
  held(): HeldReason | undefined;
  /**
   * Journals what the service made of a job's or batch's import (import-results.ts) and says so (`job`, `batch`);
   * undefined when the queue is stopped or the job or batch is not that import's.
   */
  keepImportResult(of: ImportOf, result: ImportResult): Job | BatchJob | undefined;
  /** Uploaded files and sent batches of late whose import has no result kept (import-results.ts). */
  resultsNotKept(): ResultsNotKept;
  on: TypedEmitter<QueueEvents>['on'];
  off: TypedEmitter<QueueEvents>['off'];
};

/** A job that failed (UploadQueue.failures): as journaled, and why its last steps could not be journaled, if so. */
export type Failure = Job & { notJournaled?: string };

/**
 * A job's service as logs and notices name it, as the clerk knows it: the environment's title (as Settings shows it),
 * its address and client: `Sandbox (https://…, client acme)`.
 */
const serviceName = (of: { profile?: string; baseUrl?: string; clientId?: string }): string => {
  const title = of.profile !== undefined && Object.hasOwn(PROFILE_TITLES, of.profile)
    ? PROFILE_TITLES[of.profile as keyof typeof PROFILE_TITLES] : of.profile ?? 'an unknown environment';
  return `${title} (${of.baseUrl ?? 'no address'}${of.clientId ? `, client ${of.clientId}` : ''})`;
};

/** The ends of the lasting errors that hold every file (grant-step.ts), and what holds them (UploadQueue.held). */
const HELD_UNTIL = { 'credentials-accepted': 'credentials', 'scope-given': 'scope' } as const satisfies Partial<Record<NoticeEnd, HeldReason>>;

// 'validating' is no longer written, but a journal of an older version may hold it.
const READ_STATES = new Set(['found', 'hashing', 'validating']);

/**
 * How often filed files still watched for late rows are looked at: often enough to tell the clerk soon, seldom
 * enough that a burst of filed files on a network share costs little.
 */
const FILED_CHECK_MS = 5_000;

/** The data folder's lock file: one process at a time works on a journal's files. */
export const LOCK_FILE = 'upload-queue.lock';

export function createUploadQueue(options: UploadQueueOptions): UploadQueue {
  const logger = options.logger ?? createLogger('queue');
  const now = options.now ?? Date.now;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const grantBatchWaitMs = options.grantBatchWaitMs ?? 5_000;
  const journal = openJournal(options.dataDir);
  const emitter = createTypedEmitter<QueueEvents>((error) => logger.error(`A queue event listener threw: ${describeError(error)}`));
  const abort = new AbortController();
  /**
   * The lasting problems said (LastingError) and not over yet: each is said to be over once, when it is. Opened again
   * within the run, the queue before this one may have said that files are held (for a scope, for credentials: the
   * new credentials may be why it was replaced); the held files are free again here, and it is this queue's handshake
   * that shows the problem over.
   */
  const lasting = new Set<NoticeEnd>(options.reopened ? ['scope-given', 'credentials-accepted'] : []);
  /**
   * What holds every file now (UploadQueue.held): the last hold the handshake met (grant-step.ts says it with its
   * lasting error), until a handshake goes through. Kept here, not read from the notice: the clerk may dismiss that.
   */
  let holding: HeldReason | undefined;
  const setHolding = (now: HeldReason | undefined): void => {
    if (now === holding) return;
    holding = now;
    emitter.emit('held', now);
  };
  const emit = <K extends keyof QueueEvents>(event: K, payload: QueueEvents[K]): void => {
    if (payload instanceof LastingError) lasting.add(payload.until);
    emitter.emit(event, payload);
    // After the notice, so that whoever tells the folder's state finds the notice there too.
    if (payload instanceof LastingError && Object.hasOwn(HELD_UNTIL, payload.until)) setHolding(HELD_UNTIL[payload.until as keyof typeof HELD_UNTIL]);
  };
  const over = (end: NoticeEnd): void => {
    if (lasting.delete(end)) emitter.emit('over', end);
  };
  const journalPath = join(options.dataDir, JOURNAL_FILE);
  /** A failure in the clerk's words: the journal's own (SQLite's: "database or disk is full") name the data folder. */
  const words = (error: unknown): string => (isJournalError(error) ? journalWriteProblem(journalPath, error) : describeError(error));
  const core: QueueCore = createCoreTransitions({
    journal, api: options.api, ...(options.service ? { service: options.service } : {}), settings: options.settings, logger, now, retry, random: options.random ?? Math.random,
    signal: abort.signal, emit, ...(options.afterFilingMs !== undefined ? { afterFilingMs: options.afterFilingMs } : {}),
    ...(options.takenOver ? { takenOver: options.takenOver } : {}),
  });
  /** Jobs held back because their failure could not be journaled (unjournaled-jobs.ts). */
  const unjournaled = trackUnjournaled({ journalPath, retry, random: core.random, logger, emit, over });
  /**
   * A job held back that a one-shot run (retry.giveUp) gave up on: its step could not be journaled retry.failAfter
   * times in a row (the data folder's disk stays full). `watch --once` ends with it failed instead of waiting for
   * space; the journal still holds its last committed state, from which the next run goes on.
   */
  const givenUpUnjournaled = (job: Job): boolean => retry.giveUp && (unjournaled.hold(job.id)?.tries ?? 0) >= retry.failAfter;
  /** Whether the job is held back as of `at` (monotonic), the instant of the pump's pass (unjournaled.left). */
  const heldBack = (job: Job, at: number): boolean => unjournaled.left(job.id, at) > 0 || givenUpUnjournaled(job);

  let running = false;
  let closed = false;
  let startedAt = 0;
  const busy = new Map<number, Promise<void>>();
  let handshake: Promise<void> | undefined;
  /**
   * Changes of the client's credentials (retryHeld): a handshake refused for credentials changed since it began is not
   * held but asked again at once (grant-step.ts), as the release of held files that the change made has run already.
   */
  let credentialsChanges = 0;
  let pumpQueued = false;
  let timer: NodeJS.Timeout | undefined;
  let idleWaiters: Array<() => void> = [];
  let lock: ProcessLock | undefined;
  /** The look at filed files still watched for late rows (filed-watch.ts): every FILED_CHECK_MS, one at a time. */
  let filedTimer: NodeJS.Timeout | undefined;
  let filedCheck: Promise<void> | undefined;
  const files = options.files ?? true;
  const { service } = options;

  /** Whether this queue may send the job: it was queued for this queue's service, as this queue's client. */
  const mine = (job: Job): boolean => files && (!service
    || (job.profile === service.profile && job.baseUrl === service.baseUrl && job.clientId === service.clientId));
  /**
   * Whether this queue works on the job: one it may send, or a finished one of any service (uploaded, a duplicate,
   * refused), whose filing away, and the look at its filed file, is local work that needs no service.
   */
  const worked = (job: Job): boolean => mine(job) || (files && isOutcome(job.state));
  const liveMine = (): Job[] => journal.liveJobs().filter(mine);
  const liveWorked = (): Job[] => journal.liveJobs().filter(worked);
  /** Manual batches being sent: stop() waits for each one's outcome, so it is journaled while the journal is open. */
  const sending = new Set<Promise<BatchResult>>();
  const givenUp = (job: Job) => job.heldFor !== undefined || (retry.giveUp && job.attempts >= retry.failAfter);
  /**
   * The file-name rules the last pass of the pump read: what tells a file not read yet as a receipt (census-first.ts).
   * Kept, so that isIdle() and failures() never read the settings file (it may be broken for a moment while saved).
   */
  let fileTypeRules: readonly FileTypeRule[] = DEFAULT_SETTINGS.fileTypeRules;
  /** Which census file each receipt file waits for (census-first.ts), among these jobs. */
  const censusFirstOf = (jobs: readonly Job[]): CensusFirst => censusFirst(jobs, fileTypeRules);
  /**
   * A receipt file waiting for a census file this run has given up on (`watch --once`): nothing comes by itself, so
   * it counts as failed too, and stays queued to go after that census in the next run (sent now, it would be refused).
   */
  const behindGivenUp = (job: Job, first: CensusFirst): boolean => {
    if (job.state !== 'waiting' || job.resumeState !== 'uploading') return false;
    const census = first(job);
    return census !== undefined && givenUp(census);
  };

  const isIdle = (): boolean => {
    if (busy.size > 0 || handshake) return false;
    const jobs = liveWorked();
    let first: CensusFirst | undefined;
    return jobs.every((job) => {
      if (givenUpUnjournaled(job)) return true;
      if (job.state !== 'waiting' && !isOutcome(job.state)) return false;
      if (givenUp(job)) return true;
      first ??= censusFirstOf(jobs);
      return behindGivenUp(job, first);
    });
  };

  /** Passes of the pump in a row that failed as a whole (the settings or the journal could not be read or written). */
  let pumpFailures = 0;
  /** Why the last of them failed, as said: the same cause is said once, not again at every try. */
  let pumpFailure: string | undefined;
  const schedulePump = (): void => {
    if (pumpQueued || !running) return;
    pumpQueued = true;
    setImmediate(() => {
      pumpQueued = false;
      try {
        pump();
        pumpFailures = 0;
        if (pumpFailure !== undefined) {
          pumpFailure = undefined;
          logger.info('the upload queue works again');
          over('queue-runs');
        }
      } catch (error) {
        // The pass is tried again on its own, with the queue's backoff: nothing else may come to wake it (no new
        // file, no step under way), and the cause (a settings file being saved, a full disk) may clear by itself.
        pumpFailures += 1;
        const delay = retryDelayMs(pumpFailures, retry, core.random);
        const why = words(error);
        const failure = new LastingError(`Upload queue: ${why}; trying again in ${Math.max(1, Math.round(delay / 1000))} s`, 'queue-runs', { cause: error });
        if (why === pumpFailure) {
          logger.warn(failure.message);
        } else {
          pumpFailure = why;
          logger.error(failure.message);
          emit('error', failure);
        }
        wakeAt(now() + delay);
      }
    });
  };

  /**
   * What a step's failure could not write (the journal itself cannot be written, a full disk): the job keeps its last
   * committed state, and is held back in memory with the queue's backoff until a step of it is journaled again
   * (started again at once, it would fail again at once, thousands of times a second). Said once, never thrown:
   * nothing is left to catch it.
   */
  const notJournaled = (job: Job, failure: unknown): void => unjournaled.failed(job, failure);

  /** Runs one job's step in the background; a step that throws leaves the job retrying, never stuck. */
  const work = (job: Job, step: (job: Job) => Promise<void>, onError: (job: Job, error: unknown) => void | Promise<void>): void => {
    const run = step(job)
      .then(() => unjournaled.journaled(job.id), async (error: unknown) => {
        if (closed) return;
        try {
          const latest = journal.job(job.id) ?? job;
          await onError(latest, error);
          unjournaled.journaled(job.id);
        } catch (failure) {
          notJournaled(job, failure);
        }
      })
      .finally(() => {
        busy.delete(job.id);
        schedulePump();
      });
    busy.set(job.id, run);
  };

  /**
   * A step threw: the job waits and starts over from reading its file. Said only once the wait is journaled: when it
   * cannot be (a full disk), notJournaled says that instead, once, not this at every try.
   */
  const stepFailed = (job: Job, error: unknown): void => {
    const why = words(error);
    core.wait(job, 'found', `unexpected failure: ${why}`);
    const message = `${printableName(job.name)}: ${why}`;
    logger.error(message);
    emitter.emit('error', new Error(message, { cause: error }));
  };

  const wakeAt = (at: number | undefined): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (at === undefined || !running) return;
    timer = setTimeout(() => {
      timer = undefined;
      schedulePump();
    }, Math.max(0, at - now()));
  };

  /**
   * Where each job that waits for a time (a retry, an archive retry) stands on the monotonic clock: a wall clock set
   * back (a time-zone fix, NTP correcting a fast clock) must not hold a retry up for the size of the jump. A job is due
   * at its journaled time or once the delay it was given has passed, whichever comes first.
   */
  const dueAt = new Map<number, { at: number; mono: number }>();
  /** Milliseconds until the job is due (0 or less: due now). */
  const dueIn = (job: Job, t: number): number => {
    const at = job.nextAttemptAt ?? 0;
    let seen = dueAt.get(job.id);
    if (!seen || seen.at !== at) dueAt.set(job.id, (seen = { at, mono: performance.now() + (at - t) }));
    const left = Math.min(at - t, seen.mono - performance.now());
    if (left <= 0) dueAt.delete(job.id);
    return left;
  };

  /**
   * Keeps a receipt file from beginning its upload while `first` names a census file it waits for: it waits (state
   * waiting, to resume its upload, with no time set: what it waits for ends with a step, which runs the pump) with the
   * reason as its last error. Journaled only when that changes. Returns whether it is held.
   */
  const heldForCensus = (job: Job, first: CensusFirst): boolean => {
    const census = first(job);
    if (!census) return false;
    const reason = censusFirstReason(census, fileTypeRules);
    const held = job.state === 'waiting' && job.resumeState === 'uploading' && job.nextAttemptAt === undefined && job.lastError === reason;
    if (!held) {
      logger.info(`${printableName(job.name)}: ${reason}`);
      core.write(job.id, { state: 'waiting', resumeState: 'uploading', nextAttemptAt: null, lastError: reason });
    }
    return true;
  };

  const pump = (): void => {
    if (!running) return;
    const t = now();
    // The one instant this pass holds jobs back as of, and wakes for those held (unjournaled.left).
    const mono = monotonic();
    const settings = options.settings();
    const limit = settings.concurrency;
    fileTypeRules = settings.fileTypeRules;
    let jobs = liveWorked();
    let wake: number | undefined;
    const later = (at: number) => (wake = wake === undefined ? at : Math.min(wake, at));
    // Whether a job is a census file on its way changes only by a step, never within this pass.
    const first = censusFirstOf(jobs);

    // Waiting jobs whose time has come go back to the step they wait for; a receipt file's upload not while a census
    // file found with it is on its way.
    for (const job of jobs) {
      if (job.state !== 'waiting' || busy.has(job.id) || givenUp(job) || heldBack(job, mono)) continue;
      const left = dueIn(job, t);
      if (left > 0) later(t + left);
      else if (job.resumeState !== 'uploading' || !heldForCensus(job, first)) {
        core.write(job.id, { state: job.resumeState ?? 'found', resumeState: null, nextAttemptAt: null });
      }
    }
    jobs = liveWorked();

    for (const job of jobs) {
      if (!isOutcome(job.state) || busy.has(job.id) || givenUp(job) || heldBack(job, mono)) continue;
      const left = dueIn(job, t);
      if (left > 0) later(t + left);
      else work(job, (j) => archiveJob(core, j), (j, error) => archiveFailed(core, j, error));
    }

    let readers = [...busy.keys()].filter((id) => READ_STATES.has(journal.job(id)?.state ?? '')).length;
    for (const job of jobs) {
      if (readers >= limit) break;
      if (!READ_STATES.has(job.state) || busy.has(job.id) || heldBack(job, mono)) continue;
      work(job, (j) => inspectFile(core, j), stepFailed);
      readers += 1;
    }

    if (!handshake) {
      const ready = readyForGrant(jobs, mono);
      const stillReading = jobs.some((job) => READ_STATES.has(job.state));
      const oldest = Math.min(...ready.map((job) => job.stateChangedAt));
      if (ready.length >= LIMITS.submissionItems || (ready.length > 0 && (!stillReading || t - oldest >= grantBatchWaitMs))) {
        const batch = ready.slice(0, LIMITS.submissionItems);
        handshake = requestGrants(core, batch, () => credentialsChanges)
          .then((granted) => {
            batch.forEach((job) => unjournaled.journaled(job.id));
            return granted;
          }, (error: unknown) => {
            for (const job of batch) {
              try {
                stepFailed(journal.job(job.id) ?? job, error);
                unjournaled.journaled(job.id);
              } catch (failure) {
                notJournaled(job, failure);
              }
            }
            return false;
          })
          .then((granted) => {
            if (!granted || closed) return;
            // The service took the client's credentials and the client may upload files: a notice that files are
            // held for either is over, whichever way they were freed (Retry now, new credentials, this handshake).
            setHolding(undefined);
            over('scope-given');
            over('credentials-accepted');
            freeHeld('the service took a handshake');
          })
          .finally(() => {
            handshake = undefined;
            schedulePump();
          });
      } else if (ready.length > 0) {
        later(oldest + grantBatchWaitMs);
      }
    }

    let uploads = [...busy.keys()].filter((id) => journal.job(id)?.state === 'uploading').length;
    for (const job of jobs) {
      // Held before the slots are counted: a receipt file waiting for its census says so, not that it is being sent.
      if (job.state !== 'uploading' || busy.has(job.id) || heldBack(job, mono) || heldForCensus(job, first)) continue;
      if (uploads >= limit) break;
      work(job, (j) => uploadJob(core, j), (j, error) => stepFailed(j, error));
      uploads += 1;
    }

    const held = unjournaled.nextDue(t, mono);
    if (held !== undefined) later(held);
    wakeAt(wake);
    if (isIdle()) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  /**
   * The jobs held until the clerk acts (grant-step.ts: a missing scope, credentials the service refused or none) are
   * tried again now, since what held them may be gone (`why`): a handshake went through, or the credentials changed.
   * Otherwise they would wait for a Retry now each, or the next start. Held again if the cause is still there.
   */
  const freeHeld = (why: string): void => {
    const held = liveMine().filter((job) => job.heldFor !== undefined);
    if (held.length === 0) return;
    logger.info(`${why}: ${held.length} held file(s) are tried again`);
    try {
      core.atomically(() => held.forEach((job) => core.write(job.id, { heldFor: null, attempts: 0, nextAttemptAt: now() })));
      schedulePump();
    } catch (error) {
      // The journal cannot be written (a full disk): they stay held, and Retry now or the next start frees them.
      const message = `The held files could not be tried again: ${journalWriteProblem(journalPath, error)}`;
      logger.error(message);
      emitter.emit('error', new Error(message, { cause: error }));
    }
  };

  /**
   * Jobs in granting; of two with one checksum only the first goes now (the second follows once it is done). Census
   * files are listed before receipt files (census-first.ts).
   */
  const readyForGrant = (jobs: Job[], mono: number): Job[] => {
    const inFlight = new Set<string>();
    const ready: Job[] = [];
    for (const job of jobs) {
      const active = job.state === 'granting' || job.state === 'uploading'
        || (job.state === 'waiting' && (job.resumeState === 'granting' || job.resumeState === 'uploading'));
      if (!active || !job.md5) continue;
      if (inFlight.has(job.md5)) continue;
      inFlight.add(job.md5);
      if (job.state === 'granting' && !busy.has(job.id) && !heldBack(job, mono)) ready.push(job);
    }
    return censusBeforeReceipts(ready);
  };

  /**
   * Crash recovery: a job caught mid-read is read again; waiting jobs are due now (a restart is a retry) with a fresh
   * retry budget (a scheduled `watch --once` retries what an earlier run gave up); jobs held for a configuration
   * problem are tried again. Jobs of a journal written before jobs kept their service are adopted by this one.
   */
  const recover = (): void => {
    // Without the lock (`send`), another process may be sending a batch right now: leave `sending` batches alone.
    if (!files) return;
    // Opened again within the run (its service changed), the queue before this one waited for its own batches to end
    // (stop): a batch still `sending` is another process's (a `send` command), in flight, not interrupted.
    if (!options.reopened) {
      const interrupted = journal.markInterruptedBatches(now());
      if (interrupted > 0) logger.warn(`${interrupted} manual batch(es) were being sent when the app stopped: outcome unknown`);
    }
    const legacy = journal.liveJobs().filter((job) => job.baseUrl === undefined);
    if (service && legacy.length > 0) {
      logger.warn(`${legacy.length} unfinished upload(s) journaled by an older version are taken up for ${serviceName(service)}`);
      core.atomically(() => legacy.forEach((job) => core.write(job.id, {
        profile: service.profile, baseUrl: service.baseUrl, ...(service.clientId ? { clientId: service.clientId } : {}),
      })));
    }
    // Jobs of this service queued before any client was set (or by a version that did not keep the client) go as
    // the first client set for it; a job queued as another client is never taken over.
    const clientId = service?.clientId;
    if (service && clientId !== undefined) {
      const clientless = journal.liveJobs()
        .filter((job) => job.clientId === undefined && job.profile === service.profile && job.baseUrl === service.baseUrl);
      if (clientless.length > 0) {
        logger.warn(`${clientless.length} unfinished upload(s) queued before a client was set are sent as client ${clientId}`);
        core.atomically(() => clientless.forEach((job) => core.write(job.id, { clientId })));
      }
    }
    const resumed = liveWorked().filter((job) => {
      // A claimed file another uploader (of the same service and client) took over while this one was stopped: it
      // sends it, so this job ends here, before a handshake asks for it again.
      if (isOutcome(job.state) || core.takenOver?.(job) === undefined || lstatSync(job.path, { throwIfNoEntry: false })) return true;
      core.disappeared(job);
      return false;
    });
    for (const job of resumed) {
      const fresh = { attempts: 0, heldFor: null };
      if (job.state === 'hashing' || job.state === 'validating') core.write(job.id, { ...fresh, state: 'found' });
      else if (job.state === 'waiting') core.write(job.id, { ...fresh, nextAttemptAt: now() });
      else if (job.attempts > 0 || job.heldFor !== undefined) core.write(job.id, fresh);
    }
    const uploads = resumed.filter((job) => !isOutcome(job.state)).length;
    // Filing goes on whatever the service: opened again for another one, the filings did not wait for it.
    const filings = options.reopened ? 0 : resumed.length - uploads;
    if (uploads > 0 || filings > 0) {
      const parts = [uploads > 0 ? `${uploads} upload${uploads === 1 ? '' : 's'}` : '', filings > 0 ? `the filing of ${filings} finished file${filings === 1 ? '' : 's'}` : ''];
      const what = parts.filter(Boolean).join(' and ');
      emitter.emit('notice', options.reopened ? `taking up ${what} that waited for this service` : `resuming ${what} from the last run`);
    }
    // What an earlier opening said waits elsewhere may be this service's now, or gone: said afresh below.
    emitter.emit('over', 'queue-opened');
    const foreign = new Map<string, number>();
    for (const job of journal.liveJobs()) {
      if (worked(job)) continue;
      const key = serviceName(job);
      foreign.set(key, (foreign.get(key) ?? 0) + 1);
    }
    for (const [where, count] of foreign) {
      const files = count === 1 ? '1 file waits' : `${count} files wait`;
      emitter.emit('notice', {
        message: `${files} to be uploaded to another service, ${where}: ${count === 1 ? 'it is' : 'they are'} sent once uploads go to that service again`,
        until: 'queue-opened',
      });
    }
  };

  /**
   * The service a job put back for `forService` is journaled for: this queue's own when that is the same service and
   * names no client (refused before any client was set), as recover() adopts such jobs; else `forService` itself.
   */
  const adopted = (forService: JobService): JobService | undefined =>
    service && forService.clientId === undefined && forService.profile === service.profile && forService.baseUrl === service.baseUrl
      ? service : forService;

  return {
    add(file, forService) {
      if (closed) throw new Error('The upload queue is stopped; create a new one');
      const all = journal.liveJobsAt(file.path);
      const theirs = all.find((job) => !mine(job));
      if (theirs) {
        logger.warn(`${printableName(file.name)} is queued for ${serviceName(theirs)}; this run does not send it`);
        return undefined;
      }
      const live = all;
      if (live.some((job) => job.size === file.size && job.mtimeMs === file.mtimeMs)) return undefined;
      const pending = live.find((job) => !isOutcome(job.state));
      let job: Job;
      if (pending) {
        // A new version of a file still in the queue: the same job starts over on it (a read or PUT under way
        // notices the change itself, by the size/mtime check or by the server's checksum answer).
        const restart = busy.has(pending.id) ? {} : {
          state: 'found' as const, resumeState: null, nextAttemptAt: null, md5: null, grantUrl: null,
          grantExpiresAt: null, grantIssuedAt: null, putStartedAt: null,
        };
        job = core.write(pending.id, { size: file.size, mtimeMs: file.mtimeMs, mismatches: 0, attempts: 0, ...restart });
      } else {
        job = journal.insertJob(file, now(), localDay(now()), forService ? adopted(forService) : service);
        emitter.emit('job', job);
      }
      schedulePump();
      return job;
    },
    refuse(file, reason) {
      if (closed) throw new Error('The upload queue is stopped; create a new one');
      const at = now();
      const inserted = journal.insertJob({ ...file, size: 0, mtimeMs: 0 }, at, localDay(at), service);
      emitter.emit('job', inserted);
      const job = core.reject(inserted, reason);
      schedulePump();
      return job;
    },
    knows: (path) => journal.liveJobsAt(path).length > 0,
    unfinished: () => (closed ? [] : liveWorked()),
    async start() {
      if (closed) throw new Error('The upload queue is stopped; create a new one');
      if (running) return;
      if (files && !lock) {
        // Watching the lock of an uploader that may have died can take a minute (process-lock.ts): said, and ended by stop().
        const taken = await acquireProcessLock(join(options.dataDir, LOCK_FILE), 'uploader', undefined, { say: (m) => logger.warn(m), signal: abort.signal })
          .catch((error: unknown) => {
            if (closed) return undefined;
            throw error;
          });
        if (!taken || closed) {
          await taken?.release();
          throw new Error('The upload queue is stopped; create a new one');
        }
        lock = taken;
      }
      startedAt = now();
      recover();
      running = true;
      schedulePump();
      if (files) {
        const lookAtFiled = (): void => {
          if (filedCheck || closed) return;
          filedCheck = checkFiledFiles(core, worked)
            .catch((error: unknown) => logger.warn(`looking at filed files failed: ${describeError(error)}`))
            .finally(() => {
              filedCheck = undefined;
            });
        };
        // At once too: a run shorter than the interval (`watch --once`) still ends the watches that are over (a held
        // original deleted), and stop() waits for that look.
        lookAtFiled();
        filedTimer = setInterval(lookAtFiled, FILED_CHECK_MS);
      }
    },
    async stop() {
      if (closed) return;
      running = false;
      closed = true;
      wakeAt(undefined);
      clearInterval(filedTimer);
      abort.abort();
      await Promise.allSettled([...busy.values(), ...(handshake ? [handshake] : []), ...(filedCheck ? [filedCheck] : []), ...sending]);
      journal.close();
      await lock?.release();
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    },
    isIdle,
    idle() {
      if (closed || isIdle()) return Promise.resolve();
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        schedulePump();
      });
    },
    failures() {
      const first = censusFirstOf(liveWorked());
      return journal.jobs(10_000).flatMap((job): Failure[] => {
        if (givenUpUnjournaled(job)) return [{ ...job, notJournaled: unjournaled.hold(job.id)!.problem }];
        const failed = mine(job) && ((job.state === 'rejected' && job.stateChangedAt >= startedAt)
          || (!job.archivedAt && (job.attempts >= retry.failAfter || job.heldFor !== undefined || behindGivenUp(job, first))));
        return failed ? [job] : [];
      });
    },
    sendBatch(kind, records) {
      if (closed) return Promise.reject(new Error('The upload queue is stopped; create a new one'));
      const batch = sendManualBatch(core, kind, records);
      sending.add(batch);
      const done = () => sending.delete(batch);
      batch.then(done, done);
      return batch;
    },
    jobs: (limit) => journal.jobs(limit),
    job: (id) => journal.job(id),
    batches: (limit) => journal.batches(limit),
    retryNow(id) {
      const job = journal.job(id);
      const waits = job && job.archivedAt === undefined && (job.state === 'waiting' || (isOutcome(job.state) && job.nextAttemptAt !== undefined));
      if (!job || !waits) return undefined;
      // A job that was given up on starts its count again, or pump would pass it by; a job held for a missing scope
      // is no longer held (its try asks for a new token, so a scope given meanwhile is seen; refused again, it is
      // held again with the same words).
      const updated = core.write(id, { nextAttemptAt: now(), ...(givenUp(job) ? { attempts: 0, heldFor: null } : {}) });
      schedulePump();
      return updated;
    },
    held: () => holding,
    retryHeld() {
      // Counted first: a handshake under way now was made with the old credentials, and its refusal is not held.
      credentialsChanges += 1;
      if (!running || closed) return;
      freeHeld('the client\'s credentials changed');
    },
    keepImportResult: (of, result) => (closed ? undefined : keepImportResult(core, of, result)),
    resultsNotKept: () => (closed ? { jobs: [], batches: [] } : resultsNotKept(core)),
    on: emitter.on,
    off: emitter.off,
  };
}
