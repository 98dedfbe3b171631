/** What the clerk can do with one job beyond looking at it: its error report, re-queue a fixed file. */
import { mkdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errorCode } from '../../lib/fs-errors';
import { errorNotePath, freeTarget, moveNoClobber } from '../queue/archive';
import { serviceOf, type Job, type UploadQueue } from '../queue';
import { ConflictError, NotFoundError } from '../session';

/** Error reports are short; a bigger one is not ours. */
const ERROR_FILE_MAX_BYTES = 1024 * 1024;

export function requireJob(queue: UploadQueue, id: number): Job {
  const job = queue.job(id);
  if (!job) throw new NotFoundError(`There is no job ${id}`);
  return job;
}

/** Whether a regular file is at the path now. */
export async function isFileAt(path: string | undefined): Promise<boolean> {
  if (!path) return false;
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return false;
    throw error;
  }
}

/** The `.error.txt` beside a refused file, when it is there. */
export async function errorFileOf(job: Job): Promise<string | undefined> {
  if (job.state !== 'rejected' || !job.archivedPath) return undefined;
  const path = errorNotePath(job.archivedPath);
  return (await isFileAt(path)) ? path : undefined;
}

export async function readErrorFile(job: Job): Promise<{ path: string; text: string }> {
  const path = await errorFileOf(job);
  if (!path) throw new NotFoundError(`${job.name} has no error report (only refused files get one)`);
  const size = (await stat(path)).size;
  if (size > ERROR_FILE_MAX_BYTES) throw new ConflictError(`${path} is larger than an error report can be (${size} bytes)`);
  return { path, text: await readFile(path, 'utf8') };
}

/**
 * Moves a refused file the clerk fixed from rejected/ back to where the uploader read it (never over another file: a
 * clash gets a numbered name) and queues it again as a new job, for the service and client it was refused for: a job
 * is only ever sent to its own service, as its own client, so after a switch of environment it waits for that one
 * like any other job of it. A file that was claimed in a shared folder goes back into this uploader's claim folder,
 * still claimed, so no other uploader takes it too. Its old error report stays in rejected/.
 */
export async function requeueJob(queue: UploadQueue, job: Job): Promise<Job> {
  if (job.state !== 'rejected' || !job.archivedPath) {
    throw new ConflictError(`${job.name} is not a refused file in rejected/ (state ${job.state}); only those can be re-queued`);
  }
  let source: Awaited<ReturnType<typeof stat>>;
  try {
    source = await stat(job.archivedPath);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new NotFoundError(`${job.archivedPath} is no longer there (moved or re-queued already)`);
    throw error;
  }
  if (!source.isFile()) throw new ConflictError(`${job.archivedPath} is not a file`);
  const folder = dirname(job.path);
  // Made like the claims make it: other uploaders of the share must be able to take over a dead one's claims.
  if (job.claimedFrom) await mkdir(folder, { recursive: true });
  const target = await freeTarget(folder, job.name, false);
  await moveNoClobber(job.archivedPath, target);
  const moved = await stat(target);
  const claimedFrom = job.claimedFrom ? join(dirname(job.claimedFrom), basename(target)) : undefined;
  const added = queue.add(
    { path: target, name: basename(target), size: moved.size, mtimeMs: moved.mtimeMs, ...(claimedFrom ? { claimedFrom } : {}) },
    serviceOf(job),
  );
  if (!added) throw new ConflictError(`${basename(target)} is already in the queue`);
  return added;
}
