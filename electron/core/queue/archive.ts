/**
 * Moves a user's file into the archive folders without ever deleting or overwriting anything: a name clash gets a
 * numeric suffix, and the move itself refuses to replace an existing file. What is filed is payroll data (names,
 * SSNs, pay), so it is kept from the computer's other users: the folders made for filing are open to nobody but their
 * owner and, in a folder shared with its group, that group (so the clerks of a shared folder can all file there);
 * copies and notes are owner-only, and a filed file's group and other access is taken away (docs/uploader.md).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { chmod, link, lstat, open, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { errorCode } from '../../lib/fs-errors';
import { makeFoldersIn } from '../../lib/folder-access';
import { PRIVATE_FILE_MODE } from '../../lib/private-files';
import { fitName } from './fit-name';
import { lookAt, lookForTarget } from './unreachable';

/** Windows keeps access in ACLs, not modes: there a folder or file takes the access of the folder it is made in. */
const POSIX = process.platform !== 'win32';

/**
 * Makes a folder for filing (an archive folder and its parents, `uploaded/<day>/`, `not-sent/`, a hold folder). Each
 * level made here is owner-only, or shared with the group of the folder it is made in when that folder is shared
 * with its group, whatever the umask; never open to others (folder-access.ts). Folders already there (the clerk's
 * own, or made earlier) are left as they are. Failures are mkdir's own (whyNotFiled words them).
 */
export async function makeFilingFolder(dir: string): Promise<void> {
  await makeFoldersIn(dir);
}

/**
 * Takes group and other access away from a file just filed (a move keeps the file and its mode, 0644 as a umask-022
 * export tool writes it); the owner's own bits stay. Only a regular file: a refused symbolic link is filed as the link,
 * and chmod would change the file it points to. Best effort: a file of another user, or a file system that keeps no
 * modes, is left as it is, in the folder it was filed in (closed to others).
 */
export async function keepFiledFileToOwner(path: string): Promise<void> {
  if (!POSIX) return;
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isFile() || (info.mode & 0o077) === 0) return;
  await chmod(path, info.mode & 0o700).catch(() => undefined);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/**
 * `name (n).csv` for n = 1, 2, ...; a long name is shortened before the suffix so that the whole fits a file name
 * (fit-name.ts), the suffix and the extension kept.
 */
export function suffixedName(name: string, n: number): string {
  if (n === 0) return name;
  const ext = extname(name);
  return fitName(name.slice(0, name.length - ext.length), ` (${n})${ext}`);
}

/** The `<name>.error.txt` beside a refused file at `target` (`census.csv.error.txt`), shortened to fit when long. */
export function errorNotePath(target: string): string {
  const name = basename(target);
  const ext = extname(name);
  return join(dirname(target), fitName(name.slice(0, name.length - ext.length), `${ext}.error.txt`));
}

/** The `<name>.warnings.txt` beside an uploaded file at `target` (`census.warnings.txt`), shortened to fit when long. */
export function warningsNotePath(target: string): string {
  return join(dirname(target), fitName(basename(target).replace(/\.csv$/i, ''), '.warnings.txt'));
}

/** A path in `dir` free for `name` (and for its `.error.txt` / `.warnings.txt` when `withNotes`). */
export async function freeTarget(dir: string, name: string, withNotes: boolean): Promise<string> {
  for (let n = 0; ; n += 1) {
    const candidate = join(dir, suffixedName(name, n));
    if (await exists(candidate)) continue;
    if (withNotes && (await exists(errorNotePath(candidate)))) continue;
    if (withNotes && (await exists(warningsNotePath(candidate)))) continue;
    return candidate;
  }
}

function alreadyExists(path: string): Error {
  return Object.assign(new Error(`${path} already exists`), { code: 'EEXIST' });
}

/** link() failed because the volume cannot hard-link (FAT, exFAT, some network shares) or the file has too many links. */
function cannotLink(code: string | undefined): boolean {
  return code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP' || code === 'EMLINK';
}

/**
 * Our temporary copies across volumes: `.<target name>.<random>.payroll-copy.part` (the target name shortened when
 * the whole would not fit a file name). Hidden and ending in `.part`, so neither the watcher nor a listing takes one
 * for a user's file (candidate-name.ts); the random part gives every copy its own file, so two uploaders sharing an
 * archive folder never write into, or give a name to, each other's copy.
 */
const PARTIAL_SUFFIX = '.payroll-copy.part';
const PARTIAL_TAG = /^[0-9a-f]{12}$/;
const PARTIAL_TAIL_LENGTH = 1 + 12 + PARTIAL_SUFFIX.length;

function partialName(targetName: string, tag: string): string {
  return fitName(`.${targetName}`, `.${tag}${PARTIAL_SUFFIX}`);
}

function isPartialCopyOf(entry: string, targetName: string): boolean {
  if (!entry.endsWith(PARTIAL_SUFFIX) || entry.length < PARTIAL_TAIL_LENGTH) return false;
  const tag = entry.slice(entry.length - PARTIAL_TAIL_LENGTH + 1, entry.length - PARTIAL_SUFFIX.length);
  return PARTIAL_TAG.test(tag) && entry === partialName(targetName, tag);
}

/**
 * Removes the temporary copies for `target` a crash left behind. Only our own copies of a file still at its source are
 * removed; one another uploader is still writing just fails its next step (by path) and is tried again, never placed.
 */
async function removePartialCopies(target: string): Promise<void> {
  const name = basename(target);
  const entries = await readdir(dirname(target)).catch(() => [] as string[]);
  for (const entry of entries) {
    if (isPartialCopyOf(entry, name)) await unlink(join(dirname(target), entry)).catch(() => undefined);
  }
}

/**
 * Copies the bytes of `source` into the new file `temp`, made owner-only (0600) before a byte is written (copyFile
 * would give it the source's mode, 0644 say, for the whole copy), and syncs it to disk. Fails if `temp` exists.
 */
async function copyOwnerOnly(source: string, temp: string): Promise<void> {
  const handle = await open(temp, 'wx', PRIVATE_FILE_MODE);
  try {
    for await (const chunk of createReadStream(source) as AsyncIterable<Buffer>) {
      for (let at = 0; at < chunk.length;) at += (await handle.write(chunk, at)).bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a new name durable before the source goes. Best effort: Windows cannot open a folder to sync it. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

/** Gives the complete copy `temp` the name `target` without replacing anything, then drops the temporary name. */
async function placeNoClobber(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (error) {
    if (!cannotLink(errorCode(error))) throw error;
    // No hard links on the archive volume (a FAT/exFAT drive): the checked rename of moveNoClobber.
    if (await exists(target)) throw alreadyExists(target);
    await rename(temp, target);
    return;
  }
  await unlink(temp);
}

/** Whether two looks at a file see the same version: a write changes its size, modification or status-change time. */
function sameVersion(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * Copies `source` to `target` on another volume. The bytes go to a temporary copy beside the target and are synced
 * to disk; only then does the copy take its final name, without replacing anything. So a crash mid-copy leaves at most
 * our temporary copy (removed by the next attempt), never a cut-off file under the user's name. 'changed': the
 * source was written to while it was copied (an export tool still at work): nothing is placed, the source stays.
 */
async function copyAcross(source: string, target: string): Promise<'copied' | 'changed'> {
  // Checked first so a taken name costs no copy of up to 100 MB; the link below is what refuses to replace.
  if (await exists(target)) throw alreadyExists(target);
  await removePartialCopies(target);
  const temp = join(dirname(target), partialName(basename(target), randomBytes(6).toString('hex')));
  try {
    const before = await lstat(source);
    await copyOwnerOnly(source, temp);
    if (!sameVersion(before, await lstat(source))) {
      await unlink(temp);
      return 'changed';
    }
    await placeNoClobber(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDir(dirname(target));
  return 'copied';
}

/**
 * Puts the original of a file copied to another volume aside at `holdAt` (a rename on its own volume) instead of
 * deleting it: an export tool that paused longer than the stability wait may still hold it open and write more rows,
 * which would go into a deleted file and be lost. The queue watches the held file and deletes it only once it has
 * stayed unchanged long enough (filed-watch.ts).
 */
async function holdOriginal(source: string, holdAt: string): Promise<void> {
  await makeFilingFolder(dirname(holdAt));
  if (await exists(holdAt)) throw alreadyExists(holdAt);
  await rename(source, holdAt);
}

/**
 * Moves `source` to `target`, failing with EEXIST rather than replacing anything. A hard link plus unlink is an
 * atomic no-clobber rename on one volume; across volumes the file is copied under a temporary name, synced, linked
 * to its name (copyAcross), and the original, unchanged by the copy, is then held at `holdAt` ('held', see
 * holdOriginal) or, without one (a file no tool writes any more: one the clerk moves back), removed. Where hard links
 * are not supported, a rename after checking the target is free (the only small race left). 'changed': the file
 * changed under the move (another file took its name, or it was written to while copied); it stays where it was.
 */
export async function moveNoClobber(source: string, target: string, identity?: string, holdAt?: string): Promise<'moved' | 'held' | 'changed'> {
  try {
    await link(source, target);
    if (identity !== undefined) {
      // The name now points at another file than the one checked a moment ago: leave it where it was.
      const linked = await lstat(target);
      if (`${linked.dev}:${linked.ino}` !== identity) {
        await unlink(target);
        return 'changed';
      }
    }
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EXDEV') {
      if ((await copyAcross(source, target)) === 'changed') return 'changed';
      if (holdAt === undefined) {
        await unlink(source);
        return 'moved';
      }
      await holdOriginal(source, holdAt);
      return 'held';
    } else if (cannotLink(code)) {
      if (await exists(target)) throw alreadyExists(target);
      await rename(source, target);
      return 'moved';
    } else {
      throw error;
    }
  }
  await unlink(source);
  return 'moved';
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Finishes a move planned (and journaled) earlier: after a crash the source may be gone (moved already), linked at
 * both names, or (across volumes) copied to the target but not yet held or removed. 'taken': another file now holds
 * the target name, so a new target must be chosen. 'gone': the source's folder answers and the file is not in it
 * (nor at the target); a folder that cannot be reached throws FolderUnreachableError (unreachable.ts) instead, as the
 * file may still be there. `holdAt` as for moveNoClobber.
 */
export async function completeMove(source: string, target: string, identity?: string, holdAt?: string): Promise<MoveResult> {
  const result = await finishMove(source, target, identity, holdAt);
  // Also after a crash between the move and this: a file found filed before is made so too.
  if (result === 'moved' || result === 'held' || result === 'done-before') await keepFiledFileToOwner(target);
  return result;
}

type MoveResult = 'moved' | 'held' | 'done-before' | 'gone' | 'taken' | 'changed';

async function finishMove(source: string, target: string, identity?: string, holdAt?: string): Promise<MoveResult> {
  // lstat: a refused symbolic link is moved as the link, never followed. 'gone' only from a folder that answers: a
  // share that dropped (ENOENT for its whole tree, EIO, ESTALE…) throws FolderUnreachableError, and the move waits.
  const [src, dst] = await Promise.all([lookAt(source), lookForTarget(target)]);
  if (!src) return dst ? 'done-before' : 'gone';
  if (dst) {
    if (dst.ino === src.ino && dst.dev === src.dev) {
      await unlink(source);
      return 'done-before';
    }
    // The source is still there, so any temporary copy of it left beside the target is of no use any more.
    await removePartialCopies(target);
    // Across volumes our copy is a file of its own: one with the source's very bytes is our copy, made complete and
    // put in place before a crash kept the source from being held or removed. On one volume our moves are links or
    // renames, so a different file there is someone else's even with the same bytes.
    if (dst.dev !== src.dev && dst.isFile() && src.isFile() && dst.size === src.size
      && (await sha256File(target)) === (await sha256File(source))) {
      if (holdAt === undefined) {
        await unlink(source);
        return 'done-before';
      }
      await holdOriginal(source, holdAt);
      return 'held';
    }
    return 'taken';
  }
  await makeFilingFolder(dirname(target));
  return moveNoClobber(source, target, identity, holdAt);
}

/**
 * Writes a new note, owner-only (it names the file and quotes its row problems): never over an existing one (written
 * before a crash: kept as it is). A note that could be created but not written (a full disk) is removed again, so no
 * empty note is left to be taken for the reason.
 */
async function writeNote(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return;
    await unlink(path).catch(() => undefined);
    throw error;
  }
}

/** Writes `<target>.warnings.txt` and returns its path. */
export async function writeWarningsFile(target: string, text: string): Promise<string> {
  const path = warningsNotePath(target);
  await writeNote(path, text);
  return path;
}

/** Writes `<target>.error.txt` and returns its path. */
export async function writeErrorFile(target: string, text: string): Promise<string> {
  const path = errorNotePath(target);
  await writeNote(path, text);
  return path;
}

/** The archive folder of an outcome: uploaded/<day>/, rejected/ or duplicates/. */
export function archiveDir(root: string, outcome: 'uploaded' | 'rejected' | 'duplicate', day: string): string {
  if (outcome === 'uploaded') return join(root, 'uploaded', day);
  return join(root, outcome === 'rejected' ? 'rejected' : 'duplicates');
}
