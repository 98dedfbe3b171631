/** uploading -> uploaded: the streamed PUT to the pre-signed address, and what each answer means. */
import { dirname } from 'node:path';
import { classify, reasonOf, waitReason } from './failures';
import { printableName } from '../../lib/printable-name';
import { grantUsable } from './grant-life';
import { requestGrants } from './grant-step';
import type { Job } from './job-types';
import type { QueueCore } from './queue-core';
import { goneOrUnreachable, sentOnceReachable } from './unreachable';

/** Back to hashing: the file's bytes no longer match the checksum its grant was issued for. */
function rehash(core: QueueCore, job: Job, why: string): void {
  if (job.mismatches >= 1) {
    return void core.reject(job, `the file changed while it was being uploaded, twice (${why}); save it again to retry`);
  }
  core.logger.info(`${printableName(job.name)}: ${why}; hashing it again`);
  core.write(job.id, {
    state: 'found', mismatches: job.mismatches + 1, md5: null, grantUrl: null, grantExpiresAt: null,
    grantIssuedAt: null, putStartedAt: null, attempts: 0,
  });
}

const NO_GRANT = { grantUrl: null, grantExpiresAt: null, grantIssuedAt: null };

/**
 * The file is no longer the version that was read (its size changed), so that version cannot be sent again. An
 * earlier PUT of it (`putStartedAt` journaled before this try) may have reached the service with its answer lost (a
 * cut connection, the uploader killed as the 200 came back): taken for a new version at once, the file would be sent
 * a second time, and a receipt file that grew would have its first rows imported twice. So the service is asked
 * first, by a handshake for the version's checksum. Its duplicate answer says it holds that version: the job is
 * uploaded (grant-step.ts, onDuplicate), and filing it away finds the file changed (archive-step.ts: a file that only
 * grew is kept in not-sent/, another version is queued). A new address instead says it does not hold it, and never
 * will from the earlier PUT (that address is replaced): the new version is read. No answer: the handshake is tried
 * again later like any other, and settles it then.
 */
async function changedAfterPut(core: QueueCore, start: Job, why: string): Promise<void> {
  if (start.putStartedAt === undefined) return rehash(core, start, why);
  core.logger.info(`${printableName(start.name)}: ${why}; an earlier upload of the version read may have reached the service: asking it whether it holds that version`);
  const asking = core.write(start.id, { state: 'granting', ...NO_GRANT });
  await requestGrants(core, [asking]);
  const after = core.journal.job(start.id);
  // A new address for the version read: the service does not hold it. That address is never used.
  if (after?.state === 'uploading') rehash(core, after, why);
}

/** Uploads one job in state uploading. Never throws: every outcome is journaled. */
export async function uploadJob(core: QueueCore, start: Job): Promise<void> {
  if (!grantUsable(start, core.now())) {
    // The grant grew old unused (it waited for an upload slot, a retry or a restart): a fresh one, not counted as a
    // failed try. It cannot loop: a fresh grant that is not usable for a while from the start never gets here, the
    // handshake counts it as a failure (grant-step.ts).
    core.write(start.id, { state: 'granting', ...NO_GRANT });
    return;
  }
  if (core.api.grantedHere?.(start.grantUrl as string) === false) {
    // Given by the app's built-in server where it listened before (an earlier run, or before it was started on
    // another port): whatever listens there now is not it. A new address from the server as it runs now; an earlier
    // PUT (`putStartedAt` is kept) that reached it is then told by its duplicate answer (grant-step.ts).
    core.logger.info(`${printableName(start.name)}: its upload address was given by the built-in server where it listened before; asking it for a new one`);
    core.write(start.id, { state: 'granting', ...NO_GRANT });
    return;
  }
  // Write-ahead: from here on the server may hold the file, which changes what a later 422 means.
  const job = core.write(start.id, { putStartedAt: core.now() });
  try {
    // Only an answer that proves the service holds this checksum counts (the API client checks the ETag, and takes
    // a 409 as arrival only when it says `Upload-Status: uploaded` for this MD5).
    const result = await core.api.uploadFile(job.grantUrl as string, job.path, {
      size: job.size,
      signal: core.signal,
      ...(job.md5 ? { md5: job.md5 } : {}),
      onProgress: (bytes) => core.progress({ id: job.id, phase: 'uploading', bytes, total: job.size }),
    });
    if (result.alreadyUploaded) core.logger.info(`${printableName(job.name)}: the service already holds this file from our earlier upload`);
    core.write(job.id, {
      state: 'uploaded', uploadedAt: core.now(), attempts: 0, lastError: null, ...(result.importId ? { importId: result.importId } : {}),
    });
    return;
  } catch (error) {
    const failure = classify(error);
    // stop() aborted the PUT: leave the journal as it is, the next start resumes from uploading.
    if (core.signal.aborted) return;
    if (failure.kind === 'file-changed') return changedAfterPut(core, start, failure.message);
    if (failure.kind === 'http') {
      const { status } = failure;
      if (status === 409) {
        // Not proof of arrival (an earlier upload to this address is still being received, or a store that does
        // not say): try again later; the service cuts off a stalled upload, and then answers 200 or `uploaded`.
        return void core.wait(job, 'uploading', `the service is still receiving an earlier upload of this file: ${reasonOf(failure)}`, failure.retryAfterMs ?? 0);
      }
      if (status === 400) return rehash(core, job, `the service says the file does not match its checksum (${reasonOf(failure)})`);
      if (status === 403 || status === 404) {
        // Expired or replaced address: a fresh grant. Right away the first time, with backoff if it keeps happening.
        const cleared = { grantUrl: null, grantExpiresAt: null, grantIssuedAt: null };
        if (job.attempts === 0) return void core.write(job.id, { ...cleared, state: 'granting', attempts: 1, lastError: reasonOf(failure) });
        core.write(job.id, cleared);
        return void core.wait(job, 'granting', `the upload address was refused: ${reasonOf(failure)}`);
      }
      if (!failure.retryable) return void core.reject(job, `the service refused the upload: ${reasonOf(failure)}`);
    }
    // Gone only from a folder that answers: a share that dropped mid-upload is a folder that cannot be reached, and
    // the upload is tried again once it is back, like one cut by the network (the version checks above stand). Only
    // a failure of the file system (reading the file) can say so by itself: a network code is about the service.
    const reach = await goneOrUnreachable(job.path, dirname(job.claimedFrom ?? job.path), failure.kind === 'other' ? error : undefined);
    if (reach === 'gone') return void core.disappeared(job);
    if (reach !== undefined) return void core.wait(job, 'uploading', sentOnceReachable(reach.unreachable));
    const minDelay = failure.kind === 'http' ? failure.retryAfterMs ?? 0 : 0;
    core.wait(job, 'uploading', waitReason('the upload failed', failure, error, 'The upload'), minDelay);
  }
}
