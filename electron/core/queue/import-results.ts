/**
 * What the service made of an import once it processed it: records (rows) accepted and refused, with the reasons, or
 * the whole import refused. The service says it on the client's webhook; the local test server also answers it at
 * `GET /local/v1/imports/{id}` (session.importResult), which only it has. So, when files and batches go to the Local
 * environment (the local test server, built into the app or run on its own: the rule `payroll-uploader watch` follows
 * to show each file's result), the app asks for each new import's result once processing ends and keeps it in the
 * journal beside the file's job or the batch: History then tells a batch whose records were all refused from one the
 * service took. Elsewhere nothing is asked for, and nothing is kept.
 */
import type { ImportResult, RecordError } from '../../../shared';
import type { NoticeEnd } from '../../../shared/bridge';
import { describeError } from '../../lib/fs-errors';
import type { Logger } from '../../lib/logger';
import { printableName } from '../../lib/printable-name';
import type { BatchJob, Job, JobService } from './job-types';
import type { QueueCore } from './queue-core';

/** The result as kept: its counts and its reason; the reasons per record are kept apart (they may be many). */
export type KeptImportResult = {
  status: 'PROCESSED' | 'REJECTED';
  acceptedRecords: number;
  rejectedRecords: number;
  /** How many reasons the service gave (one per refused record and field); the first IMPORT_ERRORS_KEPT are kept. */
  errorCount: number;
  /** Why the whole import was refused (REJECTED). */
  reason?: string;
};

/** Reasons kept per import, as for a file's row warnings: enough to mend the rows, not a copy of a huge file's. */
export const IMPORT_ERRORS_KEPT = 100;

/** The import a result belongs to: a file's job or a batch, by its journal id. */
export type ImportOf = { job: number } | { batch: number };

/** The result's journal form; undefined while processing has not ended (nothing to keep yet). */
export function keptResultOf(result: ImportResult): { result: KeptImportResult; errors: RecordError[] } | undefined {
  if (result.status !== 'PROCESSED' && result.status !== 'REJECTED') return undefined;
  return {
    result: {
      status: result.status, acceptedRecords: result.acceptedRecords, rejectedRecords: result.rejectedRecords,
      errorCount: result.errors.length, ...(result.reason !== undefined ? { reason: result.reason } : {}),
    },
    errors: result.errors.slice(0, IMPORT_ERRORS_KEPT),
  };
}

/**
 * Journals the result with its job or batch and announces the change (`job`, `batch`), so every screen showing it
 * is told. Nothing is written when the job or batch is not that import's (undefined).
 */
export function keepImportResult(core: QueueCore, of: ImportOf, result: ImportResult): Job | BatchJob | undefined {
  const kept = keptResultOf(result);
  if (!kept) return undefined;
  if ('job' in of) {
    if (core.journal.job(of.job)?.importId !== result.id) return undefined;
    return core.write(of.job, { importResult: kept.result, importErrors: kept.errors });
  }
  const batch = core.journal.keepBatchImport(of.batch, result.id, kept.result, kept.errors);
  if (batch) core.emit('batch', batch);
  return batch;
}

/** What the follower needs of the session (electron/core/session): its events, where uploads go, the result's poll. */
export type ImportResultSource = {
  on: <K extends 'job' | 'batch' | 'over'>(event: K, listener: (payload: { job: Job; batch: BatchJob; over: NoticeEnd }[K]) => void) => () => void;
  uploadsGoTo(): JobService | undefined;
  importResult(id: string, waitMs?: number): Promise<ImportResult | undefined>;
  queue(): Promise<{
    keepImportResult(of: ImportOf, result: ImportResult): Job | BatchJob | undefined;
    resultsNotKept(): ResultsNotKept;
  }>;
};

/** Uploaded files and sent batches whose import has no result kept (resultsNotKept). */
export type ResultsNotKept = { jobs: Job[]; batches: BatchJob[] };

/** How many of the newest files and batches are looked at for a result not kept, when the queue opens. */
export const RESULTS_LOOKED_BACK = 200;

/**
 * Uploaded files and sent batches (of the newest RESULTS_LOOKED_BACK of each) whose import has no result kept: the run
 * that sent them stopped before processing ended (a `watch --once` whose wait ran out, an app closed meanwhile), or
 * could not fetch it. Asked for again when the queue opens.
 */
export function resultsNotKept(core: QueueCore): ResultsNotKept {
  const missing = <T extends Job | BatchJob>(item: T) => item.importId !== undefined && item.importResult === undefined;
  return {
    jobs: core.journal.jobs(RESULTS_LOOKED_BACK).filter((job) => job.state === 'uploaded' && missing(job)),
    batches: core.journal.batches(RESULTS_LOOKED_BACK).filter((batch) => batch.state === 'sent' && missing(batch)),
  };
}

/**
 * How long a result is waited for (polled every second): a big file takes the local server a while. One not ended by
 * then is not kept; History shows the file or batch as it did before.
 */
export const RESULT_WAIT_MS = 10 * 60_000;

const batchName = (batch: BatchJob) => `${batch.kind} batch ${batch.id}`;

/**
 * Asks for the result of every import the session makes from now on (a file uploaded, a batch sent) while the Local
 * environment is where uploads go, once each, and keeps it (the queue's keepImportResult); and, each time the queue
 * opens (at start, or for another service), for those of earlier runs that have none kept (resultsNotKept). A result
 * that cannot be fetched is no problem of the clerk's: it is logged, and the file or batch stays as it was. Returns
 * the stop.
 */
export function followImportResults(source: ImportResultSource, logger: Logger, waitMs = RESULT_WAIT_MS): () => void {
  /** Imports asked for in this run: once each, whatever comes of it (a file's filing says `uploaded` several times). */
  const asked = new Set<string>();
  let stopped = false;
  /** `earlier`: of an earlier run, whose import the server may no longer know (its data made new): not worth a warning. */
  const follow = (of: ImportOf, item: Job | BatchJob, name: string, earlier = false): void => {
    const id = item.importId;
    if (stopped || id === undefined || item.importResult !== undefined || asked.has(id)) return;
    // `watch` shows results in local mode, the Local environment; the result is asked of the service the import went
    // to, which must be where the session talks now (the Local environment's server, built in or on its own).
    const now = source.uploadsGoTo();
    if (item.profile !== 'local' || now?.profile !== item.profile || now.baseUrl !== item.baseUrl) return;
    asked.add(id);
    void source.importResult(id, waitMs)
      .then(async (result) => {
        if (!result || stopped) return;
        (await source.queue()).keepImportResult(of, result);
      })
      .catch((error: unknown) => {
        if (stopped) return;
        const said = `the processing result of ${name} (import ${id}) could not be fetched: ${describeError(error)}`;
        if (earlier) logger.debug(said);
        else logger.warn(said);
      });
  };
  const offs = [
    // The upload ends in `uploaded` with the import id, before the file is filed away.
    source.on('job', (job) => {
      if (job.state === 'uploaded') follow({ job: job.id }, job, printableName(job.name));
    }),
    source.on('batch', (batch) => {
      if (batch.state === 'sent') follow({ batch: batch.id }, batch, batchName(batch));
    }),
    source.on('over', (end) => {
      if (end !== 'queue-opened') return;
      void source.queue().then((queue) => {
        const { jobs, batches } = queue.resultsNotKept();
        for (const job of jobs) follow({ job: job.id }, job, printableName(job.name), true);
        for (const batch of batches) follow({ batch: batch.id }, batch, batchName(batch), true);
      }, () => undefined);
    }),
  ];
  return () => {
    stopped = true;
    for (const off of offs) off();
  };
}
