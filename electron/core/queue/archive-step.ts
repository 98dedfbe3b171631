/** uploaded/rejected/duplicate -> archived: the file moves to its folder; the move is journaled before it happens. */
import { dirname } from 'node:path';
import { archiveDir, completeMove, freeTarget, writeErrorFile } from './archive';
import { localDay } from './file-facts';
import { describeError } from '../../lib/fs-errors';
import type { Job, OutcomeState } from './job-types';
import type { QueueCore } from './queue-core';

/** The text of `<name>.error.txt`: why, and the row problems with their line numbers. */
export function errorFileText(job: Job, at: number): string {
  const lines = [`${job.name} was not uploaded.`, '', `Reason: ${job.lastError ?? 'unknown'}`];
  if (job.warnings.length > 0) {
    lines.push('', job.warningCount > job.warnings.length
      ? `Row problems (the first ${job.warnings.length} of ${job.warningCount}):`
      : 'Row problems:');
    for (const w of job.warnings) lines.push(`  ${w.line !== undefined ? `line ${w.line}: ` : ''}${w.message}`);
  }
  lines.push('', `Checked ${new Date(at).toISOString()} by Payroll Uploader. Fix the file and save it into the watched folder again.`, '');
  return lines.join('\n');
}

/** Archives one finished job. Throws on file-system failures (the caller retries later). */
export async function archiveJob(core: QueueCore, start: Job): Promise<void> {
  let job = start;
  const outcome = job.state as OutcomeState;
  const root = core.settings().archive.dir ?? dirname(job.path);
  const dir = archiveDir(root, outcome, localDay(job.uploadedAt ?? job.stateChangedAt));
  const withErrorFile = outcome === 'rejected';
  for (let tries = 0; tries < 20; tries += 1) {
    if (!job.archiveTarget) job = core.write(job.id, { archiveTarget: await freeTarget(dir, job.name, withErrorFile) });
    const target = job.archiveTarget as string;
    const result = await completeMove(job.path, target);
    if (result === 'taken') {
      // Someone else's file took the name after we chose it (or a crash left it unclear): choose again.
      job = core.write(job.id, { archiveTarget: null });
      continue;
    }
    if (result === 'gone') {
      core.logger.warn(`${job.name}: the file was no longer there to be moved to ${outcome === 'duplicate' ? 'duplicates' : outcome}/`);
      job = core.write(job.id, { archivedAt: core.now(), archiveTarget: null, nextAttemptAt: null });
    } else {
      if (withErrorFile) await writeErrorFile(target, errorFileText(job, core.now()));
      job = core.write(job.id, { archivedPath: target, archivedAt: core.now(), nextAttemptAt: null });
    }
    core.emit('result', job);
    return;
  }
  throw new Error(`${job.name}: no free name found in ${dir}`);
}

/** An archive failure (a locked file, a read-only folder): retried with backoff; the outcome itself stands. */
export function archiveFailed(core: QueueCore, job: Job, error: unknown): void {
  const delay = Math.min(core.retry.maxMs, core.retry.baseMs * 2 ** job.attempts);
  core.write(job.id, { attempts: job.attempts + 1, nextAttemptAt: core.now() + delay });
  const message = `${job.name}: moving the file to its archive folder failed: ${describeError(error)}; trying again later`;
  core.logger.warn(message);
  core.emit('error', new Error(message, { cause: error }));
}
