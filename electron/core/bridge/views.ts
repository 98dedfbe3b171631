/** The core's records mapped to the bridge contract's views: the only shapes the screens ever see. */
import type { BatchView, ImportResultView, JobDetail, JobView, ServiceView } from '../../../shared/bridge';
import { PROFILE_NAMES, PROFILE_TITLES, type ProfileName } from '../../../shared/settings.schema';
import type { BatchJob, Job, JobService } from '../queue';
import { isOutcome } from '../queue';
import type { KeptImportResult } from '../queue/import-results';
import type { JobListItem } from '../queue/job-query';
import { EMBEDDED_SERVICE } from '../session';
import { serviceProblems } from './service-problems';

/**
 * The service and client a job or batch was journaled for, as the screens name it (as `waitsFor` does); undefined when
 * the journal does not know it.
 */
export function serviceViewOf(of: { profile?: string; baseUrl?: string; clientId?: string }): ServiceView | undefined {
  const { profile, baseUrl, clientId } = of;
  if (profile === undefined || baseUrl === undefined || !(PROFILE_NAMES as readonly string[]).includes(profile)) return undefined;
  const builtIn = baseUrl === EMBEDDED_SERVICE;
  // The built-in server is only ever spoken to as the app's own client: naming it would tell the clerk nothing.
  return { profile: profile as ProfileName, builtIn, ...(builtIn ? {} : { address: baseUrl, ...(clientId ? { clientId } : {}) }) };
}

/** What the service made of an import, as the screens see it (the journal's form is the view's, field for field). */
const importResultView = (kept: KeptImportResult): ImportResultView => ({ ...kept });

export function toJobView(job: JobListItem): JobView {
  const service = serviceViewOf(job);
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
    ...(service ? { service } : {}),
    ...(job.importResult ? { importResult: importResultView(job.importResult) } : {}),
  };
}

/**
 * The service an unfinished job waits for when uploads go elsewhere now (`current`, undefined: nowhere): it is sent
 * only to the service it was queued for. Undefined when the job is finished, belongs to the current service, or has its
 * outcome (uploaded, a duplicate, refused) and waits only to be filed away, which is local work and needs no service.
 */
export function waitsForOf(job: JobListItem, current: JobService | undefined): JobView['waitsFor'] {
  const { profile, baseUrl, clientId } = job;
  if (job.archivedAt !== undefined || isOutcome(job.state) || profile === undefined || baseUrl === undefined) return undefined;
  if (current && current.profile === profile && current.baseUrl === baseUrl) {
    // A job queued before any client was set goes as the first one set (UploadQueue's recovery takes it up).
    if (clientId === undefined || clientId === current.clientId) return undefined;
  }
  return serviceViewOf(job);
}

/** Why a job of another service is not tried now, and what makes it go, in the clerk's words. */
export function waitingElsewhere(name: string, waitsFor: NonNullable<JobView['waitsFor']>): string {
  if (waitsFor.builtIn) {
    return `${name} waits for the test server built into this app, which it was queued for: start that server on the Local server screen `
      + 'with the Local test server as the active environment, and it is sent';
  }
  const environment = PROFILE_TITLES[waitsFor.profile];
  const as = waitsFor.clientId ? ` as client ${waitsFor.clientId}` : '';
  return `${name} was queued for ${environment} (${waitsFor.address})${as} and is sent only there${as ? ', as that client' : ''}: `
    + `make ${environment} the active environment in Settings, with that address${as ? ` and client ID ${waitsFor.clientId}` : ''}, and it is sent`;
}

/** A job as the screens see it, saying which service it waits for when uploads go elsewhere now. */
export function toJobViewFor(job: JobListItem, current: JobService | undefined): JobView {
  const waitsFor = waitsForOf(job, current);
  return { ...toJobView(job), ...(waitsFor ? { waitsFor } : {}) };
}

export function toJobDetail(
  job: Job, files: { errorFile: string | undefined; archivedFileThere: boolean }, current: JobService | undefined,
): JobDetail {
  const { errorFile, archivedFileThere } = files;
  return {
    ...toJobViewFor(job, current),
    archivedFileThere,
    warnings: job.warnings,
    ...(job.uploadedAt !== undefined ? { uploadedAt: job.uploadedAt } : {}),
    ...(errorFile ? { errorFile } : {}),
    ...(job.importResult && job.importErrors ? { importErrors: job.importErrors } : {}),
  };
}

export function toBatchView(batch: BatchJob): BatchView {
  // The journal's names of the service stay in the core; the screens get it as they name it.
  const { profile: _profile, baseUrl: _baseUrl, clientId: _clientId, importResult, importErrors, ...rest } = batch;
  const service = serviceViewOf(batch);
  const problems = batch.state === 'failed' && batch.error !== undefined ? serviceProblems(batch.error) : [];
  return {
    ...rest, ...(service ? { service } : {}), ...(problems.some((p) => p.index !== undefined) ? { problems } : {}),
    ...(importResult ? { importResult: importResultView(importResult), ...(importErrors ? { importErrors } : {}) } : {}),
  };
}
