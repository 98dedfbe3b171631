/** The upload queue's records: one job per watched file version, one batch per manual JSON send. */
import type { FileTypeCode, ImportCreated, RecordError, RecordKind } from '../../../shared';
import type { HeldReason, NoticeEnd } from '../../../shared/bridge';
import type { LastingNotice } from '../notices/lasting-error';
import type { KeptImportResult } from './import-results';

/**
 * States of a file job (docs/service-decisions.md §9). `waiting` means waiting to retry the step in `resumeState`.
 * uploaded, rejected and duplicate are outcomes; a job is finished once its outcome is archived (`archivedAt`).
 * `validating` is no longer written (the checksum and the verdict are journaled together) but may be found in a
 * journal of an older version.
 */
export const JOB_STATES = [
  'found', 'hashing', 'validating', 'granting', 'uploading', 'uploaded', 'rejected', 'duplicate', 'waiting',
] as const;
export type JobState = (typeof JOB_STATES)[number];

export const OUTCOME_STATES = ['uploaded', 'rejected', 'duplicate'] as const satisfies readonly JobState[];
export type OutcomeState = (typeof OUTCOME_STATES)[number];
/** The steps a waiting job goes back to. */
export type ResumeState = 'found' | 'granting' | 'uploading';

export const isOutcome = (state: JobState): state is OutcomeState => (OUTCOME_STATES as readonly string[]).includes(state);

/** One watched file, as journaled. Times are epoch milliseconds. */
export type Job = {
  id: number;
  path: string;
  name: string;
  size: number;
  mtimeMs: number;
  state: JobState;
  /** For `waiting`: the step retried at `nextAttemptAt`. */
  resumeState?: ResumeState;
  createdAt: number;
  stateChangedAt: number;
  nextAttemptAt?: number;
  /** Failed tries of the current step (network, 5xx, 429, locked file); reset when a step succeeds. */
  attempts: number;
  lastError?: string;
  /** Row problems found before upload (line numbers), uploaded anyway in 'warn' mode. */
  warnings: RecordError[];
  /** How many of them there were (warnings keeps the first 100). */
  warningCount: number;
  md5?: string;
  fileType?: FileTypeCode;
  referenceDate?: string;
  /** The day the file was found (YYYY-MM-DD), the fallback reference date. */
  foundDay: string;
  grantUrl?: string;
  /** When the grant runs out, on this computer's clock (grant-life.ts: skew-free when the service sent `Date`). */
  grantExpiresAt?: number;
  /** When the grant's answer arrived, on this computer's clock. */
  grantIssuedAt?: number;
  /** Set just before a PUT starts: from then on the server may hold the file (crash recovery relies on it). */
  putStartedAt?: number;
  /** Checksum mismatches answered by the server (one re-hash is allowed). */
  mismatches: number;
  /** The server's import id, when the service tells it. */
  importId?: string;
  uploadedAt?: number;
  /** Where the archive step is moving the file (written before the move). */
  archiveTarget?: string;
  /** Where the file ended up; absent when nothing was moved (the file had disappeared). */
  archivedPath?: string;
  archivedAt?: number;
  /** The profile (`local`, `sandbox`, `production`) this job was queued for; it is only ever sent there. */
  profile?: string;
  /** The service's base URL this job was queued for; it is only ever sent there. */
  baseUrl?: string;
  /** The client (the employer's account at the service) this job was queued under; it is only ever sent as that client. */
  clientId?: string;
  /** `dev:ino` of the version that was read: the archive step files away only that very file. */
  identity?: string;
  /**
   * The status-change time (ctime) of the version that was read. Any write changes it, and no user tool can set it
   * back, so a file rewritten in place with its size and modification time restored is still seen as a new version.
   */
  ctimeMs?: number;
  /**
   * Where the file was in the watched folder before this uploader claimed it (moved it into
   * `.processing/<owner>/` of that folder); `path` is then the claimed copy. Archive folders are beside `claimedFrom`.
   */
  claimedFrom?: string;
  /**
   * A configuration problem (a scope the client lacks, say) that retrying cannot fix: the job is not tried again
   * until the next start. Counts as a failure.
   */
  heldFor?: string;
  /** The `<name>.warnings.txt` written beside the archived file when it had row warnings. */
  warningsPath?: string;
  /**
   * Filed onto another drive: the original, put aside on its own drive (`<its folder>/.payroll-held/<id>-<createdAt>/<name>`)
   * while the file is watched (`watchUntil`), since an export tool may still be writing it; deleted once it stayed
   * unchanged, kept (and the clerk told) when it changed.
   */
  heldPath?: string;
  /**
   * Until when (epoch ms) the filed file (`heldPath`, else `archivedPath`) is watched for rows written after it was
   * read; cleared when the watch ends.
   */
  watchUntil?: number;
  /**
   * What the service made of the uploaded file once it processed it (rows accepted and refused), when the service
   * tells it: the local test server only (import-results.ts). Absent while not known.
   */
  importResult?: KeptImportResult;
  /** The service's reasons for the rows it refused, the first IMPORT_ERRORS_KEPT (line numbers). */
  importErrors?: RecordError[];
};

/** The service a job belongs to. */
/**
 * Where a job goes: a profile, its base URL and the client id it is sent as. `clientId` is absent while no client is
 * set; jobs queued then are taken up by the first client set for that service.
 */
export type JobService = { profile: string; baseUrl: string; clientId?: string };

/**
 * The service (and client) a job or batch was journaled for, whole, or undefined when it was journaled without one.
 * A new version of a job's file, and a refused file the clerk put back, go to the same place: without the client they
 * would be taken up by whichever client is set next, possibly another employer's.
 */
export function serviceOf(of: { profile?: string; baseUrl?: string; clientId?: string }): JobService | undefined {
  if (of.profile === undefined || of.baseUrl === undefined) return undefined;
  return { profile: of.profile, baseUrl: of.baseUrl, ...(of.clientId !== undefined ? { clientId: of.clientId } : {}) };
}

/** What the watcher hands over: one stable version of a file (see electron/core/watcher/stability-tracker.ts). */
export type { StableFile } from '../watcher/stable-file';

export const BATCH_STATES = ['sending', 'sent', 'failed', 'unknown'] as const;
/**
 * sending: journaled, request under way; failed: the service surely does not hold it; unknown: it may (the app stopped
 * mid-send, or no answer came after the records went out), so the outcome was never seen.
 */
export type BatchState = (typeof BATCH_STATES)[number];

/** A manual JSON batch. The records themselves are not kept (they hold personal data). */
export type BatchJob = {
  id: number;
  kind: RecordKind;
  records: number;
  state: BatchState;
  createdAt: number;
  stateChangedAt: number;
  importId?: string;
  receivedAt?: string;
  error?: string;
  /**
   * The service (profile, base URL as the journal names it) and client the batch was sent to; absent for a batch
   * journaled by a version that did not keep them, or sent by a queue that was not told its service (tests).
   */
  profile?: string;
  baseUrl?: string;
  clientId?: string;
  /** What the service made of the batch once it processed it, as for a file (Job.importResult). */
  importResult?: KeptImportResult;
  /** The service's reasons for the records it refused, the first IMPORT_ERRORS_KEPT (record index). */
  importErrors?: RecordError[];
};

export type BatchResult = { batch: BatchJob; created?: ImportCreated };

/** Progress of the one read of a file (hashing) or of its PUT (uploading). */
export type JobProgress = { id: number; phase: 'hashing' | 'uploading'; bytes: number; total: number };

/** Events of the queue: `job` on every state change, `result` once a job is finished and archived. */
export type QueueEvents = {
  job: Job;
  progress: JobProgress;
  result: Job;
  batch: BatchJob;
  error: Error;
  /**
   * Something the clerk should be told once, in plain words ("resuming 2 uploads from the last run"); with an end when
   * it stops being true by itself ("1 file waits to be uploaded to another service").
   */
  notice: string | LastingNotice;
  /** The problem an earlier `error` (a LastingError) said lasts until this is over. */
  over: NoticeEnd;
  /** What holds every file until the clerk acts changed (UploadQueue.held says what now). */
  held: HeldReason | undefined;
};
