/**
 * Moves a user's file into the archive folders without ever deleting or overwriting anything: a name clash gets a
 * numeric suffix, and the move itself refuses to replace an existing file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { copyFile, link, lstat, mkdir, open, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { errorCode } from '../../lib/fs-errors';

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/** `name (n).csv` for n = 1, 2, ... */
export function suffixedName(name: string, n: number): string {
  if (n === 0) return name;
  const ext = extname(name);
  return `${name.slice(0, name.length - ext.length)} (${n})${ext}`;
}

/** A path in `dir` free for `name` (and for its `.error.txt` / `.warnings.txt` when `withNotes`). */
export async function freeTarget(dir: string, name: string, withNotes: boolean): Promise<string> {
  for (let n = 0; ; n += 1) {
    const candidate = join(dir, suffixedName(name, n));
    if (await exists(candidate)) continue;
    if (withNotes && (await exists(`${candidate}.error.txt`))) continue;
    if (withNotes && (await exists(`${candidate.replace(/\.csv$/i, '')}.warnings.txt`))) continue;
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
 * Our temporary copies across volumes: `.<target name>.<random>.payroll-copy.part`. Hidden and ending in `.part`, so
 * neither the watcher nor a listing takes one for a user's file (candidate-name.ts); the random part gives every copy
 * its own file, so two uploaders sharing an archive folder never write into, or give a name to, each other's copy.
 */
const PARTIAL_SUFFIX = '.payroll-copy.part';
const PARTIAL_TAG = /^[0-9a-f]{12}$/;

function isPartialCopyOf(entry: string, targetName: string): boolean {
  const head = `.${targetName}.`;
  return entry.startsWith(head) && entry.endsWith(PARTIAL_SUFFIX)
    && PARTIAL_TAG.test(entry.slice(head.length, entry.length - PARTIAL_SUFFIX.length));
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

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
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

/**
 * Copies `source` to `target` on another volume. The bytes go to a temporary copy beside the target and are synced
 * to disk; only then does the copy take its final name, without replacing anything. So a crash mid-copy leaves at most
 * our temporary copy (removed by the next attempt), never a cut-off file under the user's name.
 */
async function copyAcross(source: string, target: string): Promise<void> {
  // Checked first so a taken name costs no copy of up to 100 MB; the link below is what refuses to replace.
  if (await exists(target)) throw alreadyExists(target);
  await removePartialCopies(target);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}${PARTIAL_SUFFIX}`);
  try {
    await copyFile(source, temp, constants.COPYFILE_EXCL);
    await syncFile(temp);
    await placeNoClobber(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDir(dirname(target));
}

/**
 * Moves `source` to `target`, failing with EEXIST rather than replacing anything. A hard link plus unlink is an
 * atomic no-clobber rename on one volume; across volumes the file is copied under a temporary name, synced, linked
 * to its name (copyAcross), then the source is unlinked. Where hard links are not supported, a rename after checking
 * the target is free (the only small race left).
 */
export async function moveNoClobber(source: string, target: string, identity?: string): Promise<'moved' | 'changed'> {
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
      await copyAcross(source, target);
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
 * both names, or (across volumes) copied to the target but not yet removed. 'taken': another file now holds the
 * target name, so a new target must be chosen.
 */
export async function completeMove(source: string, target: string, identity?: string): Promise<'moved' | 'done-before' | 'gone' | 'taken' | 'changed'> {
  // lstat: a refused symbolic link is moved as the link, never followed.
  const [src, dst] = await Promise.all([lstat(source).catch(() => undefined), lstat(target).catch(() => undefined)]);
  if (!src) return dst ? 'done-before' : 'gone';
  if (dst) {
    if (dst.ino === src.ino && dst.dev === src.dev) {
      await unlink(source);
      return 'done-before';
    }
    // The source is still there, so any temporary copy of it left beside the target is of no use any more.
    await removePartialCopies(target);
    // Across volumes our copy is a file of its own: one with the source's very bytes is our copy, made complete and
    // put in place before a crash kept the source from being removed. On one volume our moves are links or renames,
    // so a different file there is someone else's even with the same bytes.
    if (dst.dev !== src.dev && dst.isFile() && src.isFile() && dst.size === src.size
      && (await sha256File(target)) === (await sha256File(source))) {
      await unlink(source);
      return 'done-before';
    }
    return 'taken';
  }
  await mkdir(dirname(target), { recursive: true });
  return moveNoClobber(source, target, identity);
}

/** Writes `<target>.warnings.txt` (an existing one, written before a crash, is kept) and returns its path. */
export async function writeWarningsFile(target: string, text: string): Promise<string> {
  const path = target.replace(/\.csv$/i, '') + '.warnings.txt';
  try {
    await writeFile(path, text, { flag: 'wx' });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  return path;
}

/** Writes `<target>.error.txt`; an existing one (written before a crash) is left as it is. */
export async function writeErrorFile(target: string, text: string): Promise<void> {
  try {
    await writeFile(`${target}.error.txt`, text, { flag: 'wx' });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
}

/** The archive folder of an outcome: uploaded/<day>/, rejected/ or duplicates/. */
export function archiveDir(root: string, outcome: 'uploaded' | 'rejected' | 'duplicate', day: string): string {
  if (outcome === 'uploaded') return join(root, 'uploaded', day);
  return join(root, outcome === 'rejected' ? 'rejected' : 'duplicates');
}
