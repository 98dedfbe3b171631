/**
 * One process at a time on a folder: a lock file created with O_EXCL holding the holder's pid and host, whose mtime the
 * holder renews every HEARTBEAT_MS (its heartbeat). A lock left by a process that died (kill -9, a crash, a power cut)
 * is taken over at once when the holder ran on this machine and its pid is gone. Any other lock is stale only once this
 * process has watched its heartbeat stand still for STALE_MS of this machine's monotonic clock (heartbeat-watch.ts):
 * the mtime is written by the holder's clock, and another machine's clock may be minutes or hours off this one's (or
 * either may be set forward or back), so its age by this machine's clock proves nothing. A heartbeat that is fresh by
 * this machine's clock is refused at once, without a wait: the common case of a second uploader started beside a live
 * one. A pid alive on this machine counts as fresh for SAME_HOST_STALE_MS: after a reboot or a container restart the pid
 * may belong to another program, and the lock is then watched like any other.
 */
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorCode } from './fs-errors';
import { createHeartbeatWatch } from './heartbeat-watch';
import { printableText } from './printable-name';
import { DataFolderError } from './private-files';

export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 60_000;
/**
 * A lock of this machine whose pid is alive is refused at once while its heartbeat is younger than this by this
 * machine's clock; older, it is watched for STALE_MS like another machine's lock. A live uploader renews it every
 * HEARTBEAT_MS, so only a dead one (its pid now reused: a reboot, a container where the uploader is always pid 1) or
 * one frozen for minutes misses 30 beats in a row. Far longer than STALE_MS, because here a live pid is some evidence
 * the holder still runs.
 */
export const SAME_HOST_STALE_MS = 30 * HEARTBEAT_MS;
/**
 * How often the holder looks that its lock file is still there and still its own. Far more often than the heartbeat:
 * a lock file gone (its folder deleted, say) lets another process take the folder, and the holder must stop at once.
 * Also how often a lock being watched is looked at.
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

/** Options for tests and for callers that say what happens while a lock is watched. */
export type LockOptions = {
  /**
   * Told once, in words for the clerk, when the lock found must be watched before it can be judged (its heartbeat is
   * not fresh by this machine's clock): the wait can last STALE_MS.
   */
  say?: (message: string) => void;
  /** Ends that wait (the caller was stopped meanwhile): acquireProcessLock then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Tests: how often the holder renews its heartbeat (HEARTBEAT_MS), and how long a watched lock must stand still (STALE_MS). */
  heartbeatMs?: number;
  staleMs?: number;
};

type Found = { holder: LockHolder; raw: string; mtimeMs: number };

/**
 * The lock file's holder and heartbeat, read through one open handle: opening a file makes a network share show its
 * current modification time rather than one it cached.
 */
async function readHolder(path: string): Promise<Found | undefined> {
  let raw = '';
  let mtimeMs: number;
  try {
    const handle = await open(path, 'r');
    try {
      mtimeMs = (await handle.stat()).mtimeMs;
      raw = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    // Unreadable: judged by its heartbeat alone.
    const info = await stat(path).catch(() => undefined);
    if (!info) return undefined;
    mtimeMs = info.mtimeMs;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockHolder>;
    const holder: LockHolder = {
      pid: Number(parsed.pid), host: String(parsed.host ?? '?'), since: String(parsed.since ?? ''), what: String(parsed.what ?? 'process'),
    };
    return { holder, raw, mtimeMs };
  } catch {
    // A half-written lock (the holder died while writing it) has no pid: judged by its heartbeat alone.
    return { holder: { pid: NaN, host: '?', since: '', what: 'process' }, raw, mtimeMs };
  }
}

const onThisMachine = (holder: LockHolder) => holder.host === hostname() && Number.isInteger(holder.pid);

/**
 * What the lock found says without a wait: 'dead' (its holder ran on this machine and its pid is gone), 'live' (its
 * heartbeat is fresh by this machine's clock, in the past or the future), or 'watch': only watching its heartbeat
 * tells.
 */
function firstLook(found: Found, now: number, staleMs: number): 'dead' | 'live' | 'watch' {
  if (onThisMachine(found.holder) && !alive(found.holder.pid)) return 'dead';
  const fresh = onThisMachine(found.holder) ? SAME_HOST_STALE_MS : staleMs;
  return Math.abs(now - found.mtimeMs) <= fresh ? 'live' : 'watch';
}

/** Why a start waits: said when a lock must be watched before it can be judged. */
function watchWords(path: string, holder: LockHolder, staleMs: number): string {
  const who = Number.isInteger(holder.pid) ? `another ${holder.what} (process ${holder.pid} on ${holder.host})` : 'another process';
  return `the lock file ${printableText(path)} says this data folder is used by ${who}, but its heartbeat is not `
    + "recent by this computer's clock, and the clocks of two computers may differ: waiting up to "
    + `${Math.round(staleMs / 1000)} s to see whether it still runs. If it does, this one stops; if not, this one takes the data folder over`;
}

/**
 * A data folder the lock cannot be written in (an existing folder on a read-only disk, one this user may not write
 * in, a full disk), said as every other data folder problem is: the folder, what is wrong, what to do; other errors
 * as they are.
 */
function unusableFolder(path: string, error: unknown, chooseFolder = 'PAYROLL_DATA_DIR'): unknown {
  const choose = ` (${chooseFolder})`;
  const lock = `its lock file ${printableText(basename(path))} cannot be written`;
  switch (errorCode(error)) {
    case 'EROFS':
      return new DataFolderError(dirname(path), `cannot be used: the disk it is on is read-only (${lock}); choose a data folder on a disk that can be written${choose}`);
    case 'EACCES':
    case 'EPERM':
      return new DataFolderError(dirname(path), `cannot be used: this user is not allowed to write in it (${lock}); choose a data folder of your own${choose}, or have this one given to your user`);
    case 'ENOSPC':
    case 'EDQUOT':
      return new DataFolderError(dirname(path), `cannot be used: the disk it is on is full (${lock}); free some space on it`);
    default:
      return error;
  }
}

/**
 * Takes the lock at `path` or throws LockedError. `what` names the holder in the message ("uploader"), `chooseFolder`
 * how another data folder is chosen. A lock that only watching tells about (see the top of this file) is watched
 * first, for up to STALE_MS. Its loss while held is told to whenLockLost's listeners.
 */
export async function acquireProcessLock(path: string, what: string, chooseFolder?: string, options: LockOptions = {}): Promise<ProcessLock> {
  const staleMs = options.staleMs ?? STALE_MS;
  // The folder as it was when taken: a folder deleted and made again under the same name is another folder (the
  // journal beside the lock went with the old one).
  const folder = await stat(dirname(path));
  const mine: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), what };
  const text = `${JSON.stringify(mine)}\n`;
  const beats = createHeartbeatWatch();
  /** The heartbeat (mtime and content) of the lock being watched; undefined until one is. */
  let watching: string | undefined;
  let said = false;
  const pause = () => sleep(Math.min(CHECK_MS, staleMs / 4), undefined, options.signal ? { signal: options.signal } : {});
  for (let tries = 0; tries < 5;) {
    options.signal?.throwIfAborted();
    try {
      await writeFile(path, text, { flag: 'wx', mode: 0o600 });
      return held(path, text, what, folder, options.heartbeatMs ?? HEARTBEAT_MS);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw unusableFolder(path, error, chooseFolder);
    }
    const found = await readHolder(path);
    if (!found) {
      tries += 1;
      continue;
    }
    const beat = `${found.mtimeMs} ${found.raw}`;
    if (watching === undefined) {
      const look = firstLook(found, Date.now(), staleMs);
      if (look === 'live') throw new LockedError(path, found.holder, chooseFolder);
      if (look === 'watch') {
        watching = beat;
        beats.stillFor(path, beat);
        if (!said) options.say?.(watchWords(path, found.holder, staleMs));
        said = true;
        await pause();
        continue;
      }
    } else if (beat !== watching) {
      // It beat, or another process wrote its own lock: either way a live one holds the folder.
      throw new LockedError(path, found.holder, chooseFolder);
    } else if (beats.stillFor(path, beat) < staleMs) {
      await pause();
      continue;
    }
    // Stale: set aside under a unique name, then check it is the one judged stale: its holder may have beaten, or
    // another process taken it over, between our look and our rename, and that live lock must be put back.
    tries += 1;
    const aside = `${path}.stale-${randomBytes(6).toString('hex')}`;
    try {
      await rename(path, aside);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') continue;
      throw error;
    }
    const moved = await readHolder(aside);
    if (moved && moved.raw === found.raw && moved.mtimeMs === found.mtimeMs) {
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
function held(path: string, text: string, what: string, folder: { dev: number; ino: number }, heartbeatMs: number): ProcessLock {
  let released = false;
  // On the monotonic clock: this machine's clock set back must not stop the heartbeat for the size of the jump.
  let lastBeat = performance.now();
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
    const now = performance.now();
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
    if (now - lastBeat >= heartbeatMs) {
      lastBeat = now;
      // Whatever this clock says: the machines watching it look only whether it changed.
      const beat = new Date();
      await utimes(path, beat, beat).catch(() => undefined);
    }
    return undefined;
  };
  const timer = setInterval(() => {
    if (checking || released) return;
    checking = true;
    void check().finally(() => {
      checking = false;
    });
  }, Math.min(CHECK_MS, heartbeatMs));
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
