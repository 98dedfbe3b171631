/**
 * A folder that cannot be reached now, told apart from a file that is gone. The watched folder is often a network
 * share: one that dropped answers ENOENT for every path in it (unmounted), or EIO, ENOTCONN, ESTALE, EACCES (a stale
 * or closed mount). A file is taken for gone only when the folder that holds it answers and the file is not in it;
 * anything else is a folder that cannot be reached, and what waits on it is tried again, never recorded as gone
 * (a file recorded gone while it still sat in its claim folder was taken up again at the next start as new, and
 * filed as a duplicate of its own upload).
 */
import type { Stats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorCode } from '../../lib/fs-errors';
import { printableName } from '../../lib/printable-name';

/** Codes of a file system that does not answer (a share that dropped, a disk that failed), whatever the path. */
const NOT_ANSWERING = new Set(['EIO', 'ENOTCONN', 'ESTALE', 'EHOSTDOWN', 'EHOSTUNREACH', 'ENETDOWN', 'ENETUNREACH', 'ETIMEDOUT', 'ENXIO', 'ENODEV']);

/** `folder` (the folder a file is in) cannot be reached now: the file in it may still be there. */
export class FolderUnreachableError extends Error {
  override readonly name = 'FolderUnreachableError';
  constructor(readonly folder: string, cause?: unknown) {
    super(`the folder ${folder} cannot be reached`, { cause });
  }
}

/** Whether `folder` answers as a folder now. */
export async function folderAnswers(folder: string): Promise<boolean> {
  return stat(folder).then((info) => info.isDirectory(), () => false);
}

/** Whether a failure may be a folder that does not answer (rather than something about one file). */
function mayBeUnreachable(error: unknown): boolean {
  if (error instanceof FolderUnreachableError) return true;
  const code = errorCode(error);
  return code !== undefined && (NOT_ANSWERING.has(code) || code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM');
}

/**
 * lstat of a file whose absence means something (the file is gone): undefined only when the folder holding it answers
 * and the file is not there. Throws FolderUnreachableError when the file cannot be looked at, or is missing from a
 * folder that does not answer (the share dropped: nothing can be said of the file).
 */
export async function lookAt(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    const code = errorCode(error);
    if ((code === 'ENOENT' || code === 'ENOTDIR') && (await folderAnswers(dirname(path)))) return undefined;
    throw new FolderUnreachableError(dirname(path), error);
  }
}

/**
 * lstat of a path that may well be missing (a target not made yet): undefined when it is not there, thrown as
 * FolderUnreachableError when it cannot be looked at (EIO, EACCES…): "not there" must not be taken from a folder that
 * did not answer.
 */
export async function lookForTarget(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new FolderUnreachableError(dirname(path), error);
  }
}

/**
 * The folder a failure is about when it is one that cannot be reached now, or undefined when the failure is not about
 * reaching a folder (a full disk, a file in the way, a folder that answers but this user may not open or write: those
 * have words of their own, see failureOf). `found` is the folder the file was found in (the watched folder), which
 * was there, so one that does not answer now cannot be reached; `archiveRoot` (archive.dir, when set elsewhere) may
 * simply not be made yet, so it is taken as unreachable only when its own folder does not answer either, or the
 * system says so (EIO, ENOTCONN…). Else the folder of a FolderUnreachableError when that one does not answer itself
 * (a claim folder missing under a share's empty mount point).
 */
export async function unreachableFolderOf(error: unknown, found: string, archiveRoot: string): Promise<string | undefined> {
  if (!mayBeUnreachable(error)) return undefined;
  const notAnswering = NOT_ANSWERING.has(errorCode(failureOf(error)) ?? '');
  if (!(await folderAnswers(found))) return found;
  if (archiveRoot !== found && !(await folderAnswers(archiveRoot)) && (notAnswering || !(await folderAnswers(dirname(archiveRoot))))) {
    return archiveRoot;
  }
  if (error instanceof FolderUnreachableError) return notAnswering || !(await folderAnswers(error.folder)) ? error.folder : undefined;
  return notAnswering ? found : undefined;
}

/** The file system's own failure behind a FolderUnreachableError (for the words of a folder that does answer). */
export function failureOf(error: unknown): unknown {
  return error instanceof FolderUnreachableError && error.cause !== undefined ? error.cause : error;
}

/**
 * What a failure to read or send a job's file means for it, by lookAt's rule: 'gone' only when the folder holding the
 * file answers and the file is not in it; the folder that cannot be reached now (the watched folder `found` when it
 * does not answer, else the file's own folder) when the file cannot be looked at for that, or the failure itself was
 * a folder that did not answer (EIO, ESTALE…); undefined when neither (the file is there, or cannot be looked at for
 * a reason of its own): the failure is then the caller's to word.
 */
export async function goneOrUnreachable(path: string, found: string, failure: unknown): Promise<'gone' | { unreachable: string } | undefined> {
  let why = failure;
  try {
    if ((await lookAt(path)) === undefined) return 'gone';
  } catch (error) {
    why = error;
  }
  // Not reached when it happened, there now (the share came back meanwhile): still a try that waits, not a refusal.
  const folder = why === failure && failure instanceof FolderUnreachableError ? failure.folder : await unreachableFolderOf(why, found, found);
  return folder === undefined ? undefined : { unreachable: folder };
}

/** Why a file waits, not sent yet, while a folder cannot be reached (a network share that dropped). */
export function sentOnceReachable(folder: string): string {
  return `the folder ${printableName(folder)} cannot be reached now (a network share that is disconnected, or a folder `
    + 'renamed, removed or closed to this user); the file is sent once it can be reached again';
}
