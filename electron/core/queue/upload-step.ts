/** uploading -> uploaded: the streamed PUT to the pre-signed address, and what each answer means. */
import { stat } from 'node:fs/promises';
import { classify, reasonOf, waitReason } from './failures';
import { isGone } from '../../lib/fs-errors';
import { grantUsable } from './grant-life';
import type { Job } from './job-types';
import type { QueueCore } from './queue-core';

async function fileIsGone(path: string): Promise<boolean> {
  try {
    await stat(path);
    return false;
  } catch (error) {
    return isGone(error);
  }
}

/** Back to hashing: the file's bytes no longer match the checksum its grant was issued for. */
function rehash(core: QueueCore, job: Job, why: string): void {
  if (job.mismatches >= 1) {
    return void core.reject(job, `the file changed while it was being uploaded, twice (${why}); save it again to retry`);
  }
  core.logger.info(`${job.name}: ${why}; hashing it again`);
  core.write(job.id, {
    state: 'found', mismatches: job.mismatches + 1, md5: null, grantUrl: null, grantExpiresAt: null,
    grantIssuedAt: null, putStartedAt: null, attempts: 0,
  });
}

/** Uploads one job in state uploading. Never throws: every outcome is journaled. */
export async function uploadJob(core: QueueCore, start: Job): Promise<void> {
  if (!grantUsable(start, core.now())) {
    // The grant grew old unused (it waited for an upload slot, a retry or a restart): a fresh one, not counted as a
    // failed try. It cannot loop: a fresh grant that is not usable for a while from the start never gets here, the
    // handshake counts it as a failure (grant-step.ts).
    core.write(start.id, { state: 'granting', grantUrl: null, grantExpiresAt: null, grantIssuedAt: null });
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
    if (result.alreadyUploaded) core.logger.info(`${job.name}: the service already holds this file from our earlier upload`);
    core.write(job.id, {
      state: 'uploaded', uploadedAt: core.now(), attempts: 0, lastError: null, ...(result.importId ? { importId: result.importId } : {}),
    });
    return;
  } catch (error) {
    const failure = classify(error);
    // stop() aborted the PUT: leave the journal as it is, the next start resumes from uploading.
    if (core.signal.aborted) return;
    if (failure.kind === 'file-changed') return rehash(core, job, failure.message);
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
    if (await fileIsGone(job.path)) return void core.disappeared(job);
    const minDelay = failure.kind === 'http' ? failure.retryAfterMs ?? 0 : 0;
    core.wait(job, 'uploading', waitReason('the upload failed', failure, error, 'The upload'), minDelay);
  }
}
