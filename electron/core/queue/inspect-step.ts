/**
 * found -> hashing -> granting (or rejected): one read of the file, hashed and checked. The checksum and the verdict
 * are journaled in one write: nothing acts on a job between them, so a separate `validating` commit only cost a disk
 * sync per file (journals of older versions may still hold `validating`; recovery reads such a job again).
 */
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LIMITS, PREFLIGHT_TITLE } from '../../../shared';
import type { FileTypeCode, RecordError } from '../../../shared';
import { fileTypeOfKind } from '../../../shared';
import { checkCsv, type CsvVerdict } from './csv-check';
import { fileTypeFromName, referenceDateOf } from './file-facts';
import { describeError, errorCode, isBusy, isGone } from '../../lib/fs-errors';
import type { Job } from './job-types';
import type { JobPatch } from './journal';
import type { QueueCore } from './queue-core';
import { readOnce } from './read-once';
import { failureOf, goneOrUnreachable, sentOnceReachable } from './unreachable';
import { printableName } from '../../lib/printable-name';

/** Row problems kept in the journal and shown; the count says how many there were in all. */
export const MAX_WARNINGS = 100;
/** A file that keeps changing while it is read is re-read this often, then retried later. */
const MAX_REREADS = 3;

const MB = 1024 * 1024;

/**
 * Why a file over the limit is refused, and what to do: split it (fixing it would not help). Just over the limit its
 * size is said in bytes, as "100.0 MB" would read as within it.
 */
function tooLarge(size: number): string {
  const bytes = (n: number) => n.toLocaleString('en-US');
  const said = size / MB < LIMITS.fileBytes / MB + 0.05 ? `${bytes(size)} bytes` : `${(size / MB).toFixed(1)} MB`;
  return `the file is larger than the ${LIMITS.fileBytes / MB} MB limit (${bytes(LIMITS.fileBytes)} bytes): it has ${said}; `
    + 'split it into smaller files, each under the limit, and save those into the watched folder';
}

/** The file as the watcher saw it may be older than now: look again before reading. */
async function currentFacts(job: Job): Promise<JobPatch & { size: number }> {
  const info = await stat(job.path);
  // The version judged: the archive step files away only this one.
  return { size: info.size, mtimeMs: info.mtimeMs, identity: `${info.dev}:${info.ino}` };
}

export async function inspectFile(core: QueueCore, start: Job, rereads = 0): Promise<void> {
  let job = core.write(start.id, { state: 'hashing', resumeState: null, nextAttemptAt: null });
  const settings = core.settings();
  const byName = fileTypeFromName(job.name, settings.fileTypeRules);

  let result;
  let facts: JobPatch = {};
  try {
    const seen = await currentFacts(job);
    facts = seen;
    const { size } = seen;
    if (size === 0) return void core.reject(job, 'the file is empty', facts);
    if (size > LIMITS.fileBytes) {
      return void core.reject(job, tooLarge(size), facts);
    }
    const kind = byName ? (byName === '1' ? 'census' : 'receipt') : undefined;
    result = await readOnce(
      job.path,
      (input) => checkCsv(input, { ...(kind ? { kind } : {}), rowChecks: settings.preflight !== 'off', maxErrors: MAX_WARNINGS }),
      (bytes, total) => core.progress({ id: job.id, phase: 'hashing', bytes, total }),
    );
  } catch (error) {
    // Gone only from a folder that answers: a share that dropped (ENOENT for every path in it, EIO, ESTALE…) is a
    // folder that cannot be reached, and the file waits for it, never recorded as disappeared.
    const reach = errorCode(failureOf(error)) === undefined ? undefined : await goneOrUnreachable(job.path, dirname(job.claimedFrom ?? job.path), error);
    if (reach === 'gone') return void core.disappeared(job);
    if (reach !== undefined) return void core.wait(job, 'found', sentOnceReachable(reach.unreachable));
    // Missing a moment ago and there now (saved again by a rename): read again later, as a file that is held.
    if (isBusy(error) || isGone(error)) {
      if (job.attempts + 1 >= core.retry.failAfter) {
        return void core.reject(job, `the file cannot be read (${errorCode(error)}): ${describeError(error)}`, facts);
      }
      return void core.wait(job, 'found', `the file cannot be read yet (${errorCode(error)})`);
    }
    return void core.reject(job, `the file cannot be read: ${describeError(error)}`, facts);
  }

  if (!result.after) return void core.disappeared(job);
  const changed = result.after.size !== result.before.size || result.after.mtimeMs !== result.before.mtimeMs
    || result.bytes !== result.before.size;
  if (changed) {
    core.logger.info(`${printableName(job.name)} changed while it was read; reading it again`);
    job = core.write(job.id, { size: result.after.size, mtimeMs: result.after.mtimeMs, state: 'found' });
    if (rereads + 1 < MAX_REREADS) return inspectFile(core, job, rereads + 1);
    return void core.wait(job, 'found', 'the file keeps changing while it is read');
  }

  decide(core, job, result.csv, byName, {
    md5: result.md5, size: result.before.size, mtimeMs: result.before.mtimeMs, ctimeMs: result.before.ctimeMs, identity: result.before.identity,
  });
}

function decide(core: QueueCore, job: Job, csv: CsvVerdict, byName: FileTypeCode | undefined, read: JobPatch): void {
  if (!csv.ok) {
    const reason = byName === undefined && csv.unknownKind
      ? `the file type cannot be told: no file-name rule matches "${printableName(job.name)}" and ${csv.reason}`
      : csv.reason;
    return void core.reject(job, reason, read);
  }
  const fileType = byName ?? fileTypeOfKind(csv.kind);
  const warnings: RecordError[] = csv.errors.slice(0, MAX_WARNINGS);
  const facts = { ...read, fileType, referenceDate: referenceDateOf(job.name, job.foundDay), warnings, warningCount: csv.rejectedRows };
  if (csv.rows > 0 && csv.rejectedRows === csv.rows) {
    // Row problems are uploaded with a warning because the service accepts the good rows; with none, it would import
    // nothing while the file showed as uploaded. (Preflight off checks no rows, so rejectedRows is 0 there.)
    const none = csv.rows === 1 ? 'the only row cannot be accepted' : `none of the ${csv.rows} rows can be accepted`;
    return void core.reject(job, `${none}, so the service would import nothing: correct the row problems and save the file again`, facts);
  }
  if (csv.rejectedRows > 0 && core.settings().preflight === 'block') {
    return void core.reject(job, `${csv.rejectedRows} of ${csv.rows} rows have problems, and row problems block uploads (Settings, "${PREFLIGHT_TITLE}": Block; "preflight": "block" in the settings file)`, facts);
  }
  core.write(job.id, { ...facts, state: 'granting', attempts: 0, lastError: null });
}
