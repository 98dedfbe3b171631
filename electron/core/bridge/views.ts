/** The core's records mapped to the bridge contract's views: the only shapes the screens ever see. */
import type { BatchView, JobDetail, JobView } from '../../../shared/bridge';
import type { BatchJob, Job } from '../queue';
import { isOutcome } from '../queue';
import type { JobListItem } from '../queue/job-query';

export function toJobView(job: JobListItem): JobView {
  return {
    // Where the clerk put the file, not the uploader's claimed copy in `.processing/`.
    id: job.id, name: job.name, path: job.claimedFrom ?? job.path, size: job.size, state: job.state,
    ...(job.resumeState ? { resumeState: job.resumeState } : {}),
    ...(isOutcome(job.state) ? { outcome: job.state } : {}),
    finished: job.archivedAt !== undefined,
    foundAt: job.createdAt, foundDay: job.foundDay, stateChangedAt: job.stateChangedAt,
    ...(job.nextAttemptAt !== undefined ? { nextAttemptAt: job.nextAttemptAt } : {}),
    attempts: job.attempts,
    ...(job.lastError !== undefined ? { lastError: job.lastError } : {}),
    ...(job.fileType !== undefined ? { fileType: job.fileType } : {}),
    ...(job.referenceDate !== undefined ? { referenceDate: job.referenceDate } : {}),
    ...(job.md5 !== undefined ? { md5: job.md5 } : {}),
    warningCount: job.warningCount,
    ...(job.importId !== undefined ? { importId: job.importId } : {}),
    ...(job.archivedPath !== undefined ? { archivedPath: job.archivedPath } : {}),
    ...(job.archivedAt !== undefined ? { finishedAt: job.archivedAt } : {}),
  };
}

export function toJobDetail(job: Job, errorFile: string | undefined): JobDetail {
  return {
    ...toJobView(job),
    warnings: job.warnings,
    ...(job.uploadedAt !== undefined ? { uploadedAt: job.uploadedAt } : {}),
    ...(errorFile ? { errorFile } : {}),
  };
}

export function toBatchView(batch: BatchJob): BatchView {
  return { ...batch };
}
