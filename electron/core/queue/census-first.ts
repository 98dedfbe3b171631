/**
 * A census file goes before the receipt files found with it (docs/service-decisions.md §3). The service checks each
 * receipt's employeeRegistration against the census imports it holds when it processes the receipt's import, and it
 * processes imports in the order their data arrived: a file's when its upload completes. A payroll run exports a
 * census (with its new hires) and a receipt file at the same moment; sent side by side, the small receipt file arrives
 * first and every row of a new hire is refused, and the refused file cannot simply be put back (the service holds it
 * once). So a receipt file does not begin its upload while a census file of its service and client, found before it
 * or together with it, is still on its way: until the service has answered the census's upload, or the census has
 * ended otherwise (refused, a duplicate). A census waiting to retry still holds the receipts back (they would be
 * refused); one held until the clerk acts (`heldFor`) does not, and neither does one found well after the receipt.
 */
import { printableName } from '../../lib/printable-name';
import type { FileTypeCode } from '../../../shared';
import type { FileTypeRule } from '../../../shared/settings.schema';
import { fileTypeFromName } from './file-facts';
import { isOutcome, type Job } from './job-types';

const CENSUS: FileTypeCode = '1';
const RECEIPT: FileTypeCode = '2';

/**
 * A census found at most this long after a receipt file still counts as found with it. Files exported together are
 * found within moments of each other (each once it has not changed for the stability wait, so a large census written
 * beside a small receipt file may come a little later); a census found later only holds a receipt file that has not
 * begun its upload yet, and bounding it means a stream of new census files can never hold a receipt file for good.
 */
export const FOUND_TOGETHER_MS = 60_000;

/** The census file (or file that may be one) a receipt file waits for before its upload; undefined: none. */
export type CensusFirst = (job: Job) => Job | undefined;

const serviceKey = (job: Job): string => JSON.stringify([job.profile ?? null, job.baseUrl ?? null, job.clientId ?? null]);

/** Whether the file has not been read yet (so its type is not known, unless its name tells it). */
const notReadYet = (job: Job): boolean => job.fileType === undefined
  && (job.state === 'found' || job.state === 'hashing' || job.state === 'validating' || (job.state === 'waiting' && job.resumeState === 'found'));

/** Whether the job is a census file, or a file not read yet whose name does not tell that it is a receipt file. */
function mayBeCensus(job: Job, rules: readonly FileTypeRule[]): boolean {
  if (job.fileType !== undefined) return job.fileType === CENSUS;
  return notReadYet(job) && fileTypeFromName(job.name, rules) !== RECEIPT;
}

/**
 * Which census file each receipt file waits for, among `jobs` (the queue's unfinished jobs): per service and client,
 * the first found of the census files still on their way (and of the files not read yet that may be one). One pass
 * over the jobs, so the queue can ask for every job at every step.
 */
export function censusFirst(jobs: readonly Job[], rules: readonly FileTypeRule[]): CensusFirst {
  const first = new Map<string, Job>();
  for (const job of jobs) {
    // Answered (uploaded), refused or a duplicate: the service knows all it will know of it. Held until the clerk acts
    // (a missing scope): it must not hold receipts for as long as nobody does.
    if (isOutcome(job.state) || job.heldFor !== undefined || !mayBeCensus(job, rules)) continue;
    const key = serviceKey(job);
    const seen = first.get(key);
    if (!seen || job.createdAt < seen.createdAt || (job.createdAt === seen.createdAt && job.id < seen.id)) first.set(key, job);
  }
  return (job) => {
    if (job.fileType !== RECEIPT) return undefined;
    const census = first.get(serviceKey(job));
    return census && census.id !== job.id && census.createdAt <= job.createdAt + FOUND_TOGETHER_MS ? census : undefined;
  };
}

/** Census files first, then receipt files, each in the order given: the handshake lists them so. */
export function censusBeforeReceipts(jobs: readonly Job[]): Job[] {
  return [...jobs].sort((a, b) => Number(a.fileType !== CENSUS) - Number(b.fileType !== CENSUS));
}

/** Why a receipt file waits for `census`, in the clerk's words (the Queue shows it as the reason it waits). */
export function censusFirstReason(census: Job, rules: readonly FileTypeRule[]): string {
  const name = printableName(census.name);
  if ((census.fileType ?? fileTypeFromName(census.name, rules)) === CENSUS) {
    return `waits for ${name} to be uploaded first, so the service knows the employees it adds when it checks these `
      + 'receipts; it is sent as soon as that census file is uploaded';
  }
  return `waits for ${name} to be read first: it may be a census file, and a census file found with receipts is `
    + 'uploaded before them, so the service knows the employees it adds when it checks the receipts';
}
