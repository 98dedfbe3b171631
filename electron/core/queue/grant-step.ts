/** granting -> uploading: one handshake POST for every file ready together (up to 100). */
import type { FileMetadata, FileTypeCode } from '../../../shared';
import type { NoticeEnd } from '../../../shared/bridge';
import { classify, credentialsProblem, said, waitReason } from './failures';
import { itemRefusal } from './item-refusal';
import { FRESH_GRANT_MIN_MS, grantExpiry, grantUsable, unusableGrantReason } from './grant-life';
import type { Job } from './job-types';
import type { QueueCore } from './queue-core';
import { printableName } from '../../lib/printable-name';
import { LastingError } from '../notices/lasting-error';
import { isSignInFailure } from '../api/api-errors';

/** The scope the handshake POST needs (docs/service-decisions.md §5). */
export const HANDSHAKE_SCOPE = 'submissions:write';

function metadataOf(job: Job): FileMetadata {
  return {
    fileType: job.fileType as FileTypeCode,
    referenceDate: job.referenceDate as string,
    checksum: job.md5 as string,
    fileName: job.name,
  };
}

/** A 422 for a file whose PUT may already have reached the server means it arrived, not that it is a duplicate. */
function onDuplicate(core: QueueCore, job: Job, reason: string): void {
  if (job.putStartedAt !== undefined) {
    core.logger.info(`${printableName(job.name)}: the service already holds this checksum after our earlier upload: uploaded`);
    core.write(job.id, { state: 'uploaded', uploadedAt: core.now(), attempts: 0, lastError: null });
    return;
  }
  core.write(job.id, { state: 'duplicate', lastError: reason, attempts: 0 });
}

/**
 * Holds `jobs` for a problem only the clerk (or the service's administrator) can end: they stay in place with no next
 * try promised and no try counted, until Retry now, a handshake that goes through (upload-queue.ts frees them then),
 * a change of the client's credentials (the session frees them: UploadQueue.retryHeld) or the next start. Retrying
 * on a timer cannot end such a problem, and would only look like a slow network. Without the answer's trace id: the
 * words are the same at every try and for every file, so they are said once, in a notice that lasts until `until`.
 */
function hold(core: QueueCore, jobs: Job[], reason: string, until: NoticeEnd): void {
  core.logger.error(reason);
  core.atomically(() => {
    for (const each of jobs) {
      core.write(each.id, { state: 'waiting', resumeState: 'granting', nextAttemptAt: null, heldFor: reason, lastError: reason });
    }
  });
  core.emit('error', new LastingError(reason, until));
}

/**
 * How many times the client's credentials have changed in this queue's life (UploadQueue.retryHeld counts them): read
 * when a handshake begins and again when its credentials are refused.
 */
export type CredentialsChanges = () => number;

/**
 * Requests grants for `jobs` (all in state granting). Never throws: every outcome is journaled. `attempts` is left
 * alone on success so that an address refused again and again after fresh grants still backs off. Resolves true when
 * the service issued grants: the client may make handshakes (so nothing is held any more for a missing scope).
 */
export async function requestGrants(core: QueueCore, jobs: Job[], credentialsChanges: CredentialsChanges = () => 0): Promise<boolean> {
  if (jobs.length === 0) return false;
  // Before the token request reads the credentials: a refusal counts as theirs only if none were saved since.
  const credentialsAt = credentialsChanges();
  try {
    // A stop cuts the request and its retries short: the files stay in granting and go again at the next start.
    const grants = await core.api.requestGrants(jobs.map(metadataOf), core.signal);
    // The grants' lives are counted on this computer's clock from here (grant-life.ts).
    const receivedAt = core.now();
    if (grants.length !== jobs.length) throw new Error(`the service answered ${grants.length} grants for ${jobs.length} files`);
    // One commit for the whole handshake (up to 100 files): the PUTs start only after it, once pump sees them.
    core.atomically(() => jobs.forEach((job, i) => {
      const grant = grants[i];
      if (!grant) return;
      const times = { grantUrl: grant.uploadUrl, grantIssuedAt: receivedAt, grantExpiresAt: grantExpiry(grant, receivedAt) };
      if (!grantUsable(times, receivedAt + FRESH_GRANT_MIN_MS)) {
        // A grant that cannot be used even now is a failed try like any other: asked for again with backoff, and
        // after retry.failAfter tries the job counts as failed, its lastError naming the likely cause.
        // Taken up again at once, it would loop on handshakes as fast as the service answers.
        core.wait(job, 'granting', unusableGrantReason(grant, receivedAt));
        return;
      }
      core.write(job.id, { state: 'uploading', ...times, lastError: null });
    }));
    return true;
  } catch (error) {
    if (core.signal.aborted) return false;
    // The service does not accept the client ID and secret (a rotated secret), or none are set: only new ones help.
    const credentials = credentialsProblem(error, core.service);
    if (credentials !== undefined && credentialsChanges() !== credentialsAt) {
      // The refusal is of credentials replaced while it was awaited: the change's release of held files (retryHeld)
      // has run already and would never come again for these. They stay in granting, so the pump asks again at
      // once, with the new credentials, which decide (held then if they are refused too). No try is counted.
      core.logger.info(`the client's credentials changed while a handshake for ${jobs.length} file(s) was under way: asked again with the new ones`);
      return false;
    }
    if (credentials !== undefined) {
      hold(core, jobs, credentials, 'credentials-accepted');
      return false;
    }
    const failure = classify(error);
    // A 400 or 422 of the handshake itself refuses an item; one of the token request it made first refuses no file.
    const refused = failure.kind === 'http' && (failure.status === 400 || failure.status === 422) && !isSignInFailure(error);
    if (refused && jobs.length > 1) {
      // One item spoils the whole request: ask again one by one to learn which (never parse the server's wording).
      let granted = false;
      for (const job of jobs) granted = (await requestGrants(core, [job], credentialsChanges)) || granted;
      return granted;
    }
    if (failure.kind === 'http' && failure.status === 403) {
      // A token without the scope is a configuration problem. The API client asks for a new token after a 403, so the
      // next try sees a scope given meanwhile. The command line has no Retry now: there it is run again.
      hold(core, jobs, `the client is not allowed to upload files: it lacks the scope ${HANDSHAKE_SCOPE} (the service said: ${said(failure)}); `
        + `give the client ${HANDSHAKE_SCOPE} at the service, then press Retry now, or run the uploader again on the command line`, 'scope-given');
      return false;
    }
    const [job] = jobs;
    if (refused && job) {
      const reason = itemRefusal(failure);
      if (failure.status === 422) onDuplicate(core, job, reason);
      else core.reject(job, `the service refused the file: ${reason}`);
      return false;
    }
    const minDelay = failure.kind === 'http' ? failure.retryAfterMs ?? 0 : 0;
    core.atomically(() => {
      for (const each of jobs) core.wait(each, 'granting', waitReason('requesting an upload address failed', failure, error, 'The request for an upload address'), minDelay);
    });
    return false;
  }
}
