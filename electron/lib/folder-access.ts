/**
 * One rule for every folder the uploader makes in a folder it watches or files into (`.processing/` and the claim
 * folders in it, `uploaded/` and its dated folders, `rejected/`, `duplicates/`, `not-sent/`, `.payroll-held/`, a new
 * `archive.dir` and its missing parents): the owner has all access, others none, and the group gets the access the
 * folder it is made in gives its group, when that folder is one its group shares to work in (group-writable). So
 * clerks of one group, each with an account of their own, can all claim files in a shared export folder, take over
 * the claims of one whose uploader died, and file into the folders another of them made; while a folder made in a
 * place the group may only read (a home folder 0755, `/srv`) stays owner-only, so a custom `archive.dir` never makes
 * payroll files readable by other users. Without this, `mkdir` gives what the umask leaves (0755 under 022: the
 * group may not write, others may read).
 *
 * A folder made where the group shares is put in that folder's group (as a setgid folder does by itself; the
 * account must belong to the group, or it stays owner-only) and keeps the setgid bit, so what is made in it later
 * is in the group too. Where the file system keeps no modes, or on Windows (ACLs: a new folder takes those of the
 * folder it is made in), the folder is left as made.
 */
import { chmod, chown, mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { errorCode } from './fs-errors';

const POSIX = process.platform !== 'win32';
const OWNER_ONLY = 0o700;
const GROUP_WRITES = 0o020;
/** The group's bits and setgid, taken from the folder a new one is made in. */
const GROUP_SHARE = 0o2070;

/** The mode of a folder made in a folder of mode `parentMode`; `inItsGroup`: the new folder is in that folder's group. */
export function folderModeIn(parentMode: number, inItsGroup: boolean): number {
  return (parentMode & GROUP_WRITES) !== 0 && inItsGroup ? OWNER_ONLY | (parentMode & GROUP_SHARE) : OWNER_ONLY;
}

/** Gives the folder just made at `path` the access of the rule above. Best effort: a failure leaves it owner-only. */
async function takeParentsGroupAccess(path: string): Promise<void> {
  const [parent, made] = await Promise.all([stat(dirname(path)), stat(path)]);
  let gid = made.gid;
  if ((parent.mode & GROUP_WRITES) !== 0 && gid !== parent.gid) {
    // Made in the account's own group (the folder has no setgid bit): moved into the folder's group, which only
    // works when the account belongs to it.
    gid = await chown(path, made.uid, parent.gid).then(() => parent.gid, () => gid);
  }
  await chmod(path, folderModeIn(parent.mode, gid === parent.gid));
}

/** Makes the folder `path` (its parent must be there); false when it was there already (then left as it is). */
export async function makeFolderIn(path: string): Promise<boolean> {
  try {
    // 0700 until the group's access is given: nobody else ever sees it open wider than the rule says.
    await mkdir(path, { mode: OWNER_ONLY });
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  if (POSIX) await takeParentsGroupAccess(path).catch(() => undefined);
  return true;
}

/**
 * Makes `dir` and its missing parents, each level made by the rule above (top first, so each takes the access of
 * the level just made above it); folders already there are left as they are. Failures are mkdir's own.
 */
export async function makeFoldersIn(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: OWNER_ONLY });
  if (first === undefined || !POSIX) return;
  const made: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    made.unshift(at);
    if (at === resolve(first) || dirname(at) === at) break;
  }
  for (const at of made) await takeParentsGroupAccess(at).catch(() => undefined);
}

/**
 * The mode of a small file the uploader writes in `dir` for the other uploaders of a shared folder to read (a claim's
 * record: which service it was claimed for, never payroll data): the owner may read and write it, the group read it
 * when the folder is open to its group (made by the rule above in a shared folder), others never.
 */
export async function sharedFileModeIn(dir: string): Promise<number> {
  if (!POSIX) return 0o600;
  const info = await stat(dir).catch(() => undefined);
  return 0o600 | ((info?.mode ?? 0) & 0o040);
}
