/**
 * One process at a time on a folder: a lock file created with O_EXCL holding the holder's pid and host. A lock left
 * by a process that died (kill -9, a crash, a power cut) is taken over at once when the holder ran on this machine
 * and its pid is gone; a lock of another machine counts as stale once its heartbeat (the file's mtime, renewed every
 * HEARTBEAT_MS) is older than STALE_MS. A pid alive on this machine is trusted only while the heartbeat is younger
 * than SAME_HOST_STALE_MS: after a reboot or a container restart the pid may belong to another program.
 */
import { randomBytes } from 'node:crypto';
import { link, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { errorCode } from './fs-errors';

export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 60_000;
/**
 * A lock of this machine whose pid is alive but whose heartbeat is older than this is stale all the same: a live
 * uploader renews it every HEARTBEAT_MS, so only a dead one (its pid now reused: a reboot, a container where the
 * uploader is always pid 1) or one frozen for minutes misses 30 beats in a row. Far longer than STALE_MS, because
 * here a live pid is some evidence the holder still runs, and taking a live uploader's lock would let two run.
 */
export const SAME_HOST_STALE_MS = 30 * HEARTBEAT_MS;
/**
 * How often the holder looks that its lock file is still there and still its own. Far more often than the heartbeat:
 * a lock file gone (its folder deleted, say) lets another process take the folder, and the holder must stop at once.
 */
export const CHECK_MS = 1_000;

export type LockHolder = { pid: number; host: string; since: string; what: string };

/** Another live process holds the lock. */
export class LockedError extends Error {
  constructor(readonly path: string, readonly holder: LockHolder, chooseFolder = 'PAYROLL_DATA_DIR') {
    super(`another ${holder.what} (process ${holder.pid} on ${holder.host}, since ${new Date(holder.since).toLocaleString()}) already uses this data folder; `
      + `stop it first, or give this one its own data folder (${chooseFolder}). Lock file: ${path}`);
    this.name = 'LockedError';
  }
}

export type ProcessLock = { readonly path: string; release(): Promise<void> };

/**
 * Why a held lock was lost: its folder was removed (or replaced by another folder of that name), or its file now
 * names another process. The holder must stop working on the folder: another process may be working on it now.
 */
export type LockLost = { path: string; what: string; reason: 'folder-removed' | 'taken' };

const lostListeners = new Set<(lost: LockLost) => void>();

/**
 * Calls `listener` when any lock this process holds is lost. For code that does not take the lock itself but must
 * stop when it goes (the command line's watch, whose session's queue holds the uploader's lock). Returns the
 * unsubscribe.
 */
export function whenLockLost(listener: (lost: LockLost) => void): () => void {
  lostListeners.add(listener);
  return () => lostListeners.delete(listener);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

async function readHolder(path: string): Promise<{ holder: LockHolder; raw: string; mtimeMs: number } | undefined> {
  try {
    const [raw, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    const parsed = JSON.parse(raw) as Partial<LockHolder>;
    const holder: LockHolder = {
      pid: Number(parsed.pid), host: String(parsed.host ?? '?'), since: String(parsed.since ?? ''), what: String(parsed.what ?? 'process'),
    };
    return { holder, raw, mtimeMs: info.mtimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    // A half-written lock (the holder died while writing it) has no pid: judged by its age alone.
    const info = await stat(path).catch(() => undefined);
    if (!info) return undefined;
    return { holder: { pid: NaN, host: '?', since: '', what: 'process' }, raw: '', mtimeMs: info.mtimeMs };
  }
}

function isStale(found: { holder: LockHolder; mtimeMs: number }, now: number): boolean {
  if (found.holder.host === hostname() && Number.isInteger(found.holder.pid)) {
    return !alive(found.holder.pid) || now - found.mtimeMs > SAME_HOST_STALE_MS;
  }
  return now - found.mtimeMs > STALE_MS;
}

/**
 * Takes the lock at `path` or throws LockedError. `what` names the holder in the message ("uploader"), `chooseFolder`
 * how another data folder is chosen. Its loss while held is told to whenLockLost's listeners.
 */
export async function acquireProcessLock(path: string, what: string, chooseFolder?: string): Promise<ProcessLock> {
  // The folder as it was when taken: a folder deleted and made again under the same name is another folder (the
  // journal beside the lock went with the old one).
  const folder = await stat(dirname(path));
  const mine: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), what };
  const text = `${JSON.stringify(mine)}\n`;
  for (let tries = 0; tries < 5; tries += 1) {
    try {
      await writeFile(path, text, { flag: 'wx', mode: 0o600 });
      return held(path, text, what, folder);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const found = await readHolder(path);
    if (!found) continue;
    if (!isStale(found, Date.now())) throw new LockedError(path, found.holder, chooseFolder);
    // Set the stale lock aside under a unique name, then check it is the one judged stale: another process may have
    // taken it over between our read and our rename, and its fresh lock must be put back.
    const aside = `${path}.stale-${randomBytes(6).toString('hex')}`;
    try {
      await rename(path, aside);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') continue;
      throw error;
    }
    const moved = await readFile(aside, 'utf8').catch(() => '');
    if (moved === found.raw) {
      await unlink(aside).catch(() => undefined);
    } else {
      await link(aside, path).catch(() => undefined);
      await unlink(aside).catch(() => undefined);
    }
  }
  const found = await readHolder(path);
  throw new LockedError(path, found?.holder ?? { pid: NaN, host: '?', since: '', what: 'process' }, chooseFolder);
}

/**
 * The held lock: renews the heartbeat, and every CHECK_MS looks that the file is still ours. A lock file deleted
 * while its folder stays (a clean-up tool) is written again; a folder removed or replaced, or a lock that names
 * another process, is lost: the holder is told and the lock does nothing more.
 */
function held(path: string, text: string, what: string, folder: { dev: number; ino: number }): ProcessLock {
  let released = false;
  let lastBeat = Date.now();
  let checking = false;
  const lose = (reason: LockLost['reason']): void => {
    released = true;
    clearInterval(timer);
    const lost: LockLost = { path, what, reason };
    for (const listener of [...lostListeners]) {
      try {
        listener(lost);
      } catch {
        // One listener failing must not keep the others from hearing that the lock is gone.
      }
    }
  };
  const check = async (): Promise<void> => {
    const now = Date.now();
    const dir = await stat(dirname(path)).catch(() => undefined);
    if (!dir || dir.dev !== folder.dev || dir.ino !== folder.ino) return lose('folder-removed');
    const current = await readFile(path, 'utf8').catch((error: unknown) => (errorCode(error) === 'ENOENT' ? null : undefined));
    if (current === null) {
      // Only the lock file went: written again with O_EXCL, so a process that took the folder meanwhile keeps it.
      const written = await writeFile(path, text, { flag: 'wx', mode: 0o600 }).then(() => 'yes', (error: unknown) => (errorCode(error) === 'EEXIST' ? 'taken' : 'no'));
      if (written === 'taken') return lose('taken');
      // Not written (the disk is full, say): tried again at the next look.
      if (written === 'yes') lastBeat = now;
      return undefined;
    }
    // Unreadable for a moment (a share hiccups): judged at the next look.
    if (current === undefined) return undefined;
    if (current !== text) return lose('taken');
    if (now - lastBeat >= HEARTBEAT_MS) {
      lastBeat = now;
      await utimes(path, new Date(now), new Date(now)).catch(() => undefined);
    }
    return undefined;
  };
  const timer = setInterval(() => {
    if (checking || released) return;
    checking = true;
    void check().finally(() => {
      checking = false;
    });
  }, CHECK_MS);
  timer.unref();
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      // Only our own lock is removed (never one another process took over meanwhile).
      const current = await readFile(path, 'utf8').catch(() => undefined);
      if (current === text) await unlink(path).catch(() => undefined);
    },
  };
}
