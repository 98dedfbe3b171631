/**
 * Moves a user's file into the archive folders without ever deleting or overwriting anything: a name clash gets a
 * numeric suffix, and the move itself refuses to replace an existing file.
 */
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
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

/**
 * Moves `source` to `target`, failing with EEXIST rather than replacing anything. A hard link plus unlink is an
 * atomic no-clobber rename on one volume; across volumes the file is copied with COPYFILE_EXCL, then unlinked.
 * Where hard links are not supported, a rename after checking the target is free (the only small race left).
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
      await copyFile(source, target, constants.COPYFILE_EXCL);
    } else if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP' || code === 'EMLINK') {
      if (await exists(target)) throw Object.assign(new Error(`${target} already exists`), { code: 'EEXIST' });
      await rename(source, target);
      return 'moved';
    } else {
      throw error;
    }
  }
  await unlink(source);
  return 'moved';
}

/**
 * Finishes a move planned (and journaled) earlier: after a crash the source may be gone (moved already), or linked
 * at both names. 'taken': another file now holds the target name, so a new target must be chosen.
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
