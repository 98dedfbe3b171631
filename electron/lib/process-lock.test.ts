import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../test/helpers/local-server';
import { LockedError, SAME_HOST_STALE_MS, acquireProcessLock, whenLockLost, type LockLost } from './process-lock';

let dir: string;
let other: ChildProcess | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'process-lock-'));
});
afterEach(async () => {
  other?.kill('SIGKILL');
  other = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A lock file as a holder with `pid` on this machine left it, its last heartbeat `ageMs` ago. */
async function lockOf(path: string, pid: number, ageMs: number): Promise<string> {
  const text = `${JSON.stringify({ pid, host: hostname(), since: '2026-01-01T00:00:00.000Z', what: 'uploader' })}\n`;
  await writeFile(path, text);
  const beat = new Date(Date.now() - ageMs);
  await utimes(path, beat, beat);
  return text;
}

describe('acquireProcessLock', () => {
  it('trusts a live pid of this machine while its heartbeat is fresh, not once it is hours old (the pid was reused)', async () => {
    // A real live process that is not an uploader: what a dead uploader's pid names after a reboot.
    other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = other.pid!;
    const path = join(dir, 'upload-queue.lock');

    // A fresh heartbeat, or one just younger than the limit: a live uploader, left alone.
    for (const age of [0, SAME_HOST_STALE_MS - 60_000]) {
      const text = await lockOf(path, pid, age);
      const refused = await acquireProcessLock(path, 'uploader').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(LockedError);
      expect((refused as LockedError).holder.pid).toBe(pid);
      expect(await readFile(path, 'utf8')).toBe(text);
    }

    // Two hours without a heartbeat: no uploader holds it any more, whatever runs under that pid now.
    await lockOf(path, pid, 2 * 3_600_000);
    const lock = await acquireProcessLock(path, 'uploader');
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname(), what: 'uploader' });
    await lock.release();
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(other.exitCode).toBeNull();
  });
});

describe('a held lock', () => {
  let unsubscribe = (): unknown => undefined;
  afterEach(() => unsubscribe());
  it('writes its lock file again when only the file was deleted, so a second process is still refused', async () => {
    const path = join(dir, 'upload-queue.lock');
    const lost: LockLost[] = [];
    unsubscribe = whenLockLost((l) => lost.push(l));
    const lock = await acquireProcessLock(path, 'uploader');
    const text = await readFile(path, 'utf8');
    await unlink(path);
    expect(await eventually(() => readFile(path, 'utf8').catch(() => undefined))).toBe(text);
    await expect(acquireProcessLock(path, 'uploader')).rejects.toBeInstanceOf(LockedError);
    expect(lost).toEqual([]);
    await lock.release();
  });

  it('is lost when its folder is removed, or replaced by a new folder of that name, and says so once', async () => {
    const data = join(dir, 'data');
    await mkdir(data);
    const path = join(data, 'upload-queue.lock');
    const lost: LockLost[] = [];
    unsubscribe = whenLockLost((l) => lost.push(l));
    const lock = await acquireProcessLock(path, 'uploader');
    await rename(data, join(dir, 'elsewhere'));
    await mkdir(data);
    await eventually(() => lost[0]);
    expect(lost).toEqual([{ path, what: 'uploader', reason: 'folder-removed' }]);
    // The new folder is not written to: no lock file appears in it, and release leaves it alone.
    await lock.release();
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is lost when its file now names another process (taken over), and release leaves that lock in place', async () => {
    const path = join(dir, 'upload-queue.lock');
    const lost: LockLost[] = [];
    unsubscribe = whenLockLost((l) => lost.push(l));
    const lock = await acquireProcessLock(path, 'uploader');
    const theirs = `${JSON.stringify({ pid: process.pid + 1, host: 'another-host', since: '2026-01-01T00:00:00.000Z', what: 'uploader' })}\n`;
    await writeFile(path, theirs);
    await eventually(() => lost[0]);
    expect(lost).toEqual([{ path, what: 'uploader', reason: 'taken' }]);
    await lock.release();
    expect(await readFile(path, 'utf8')).toBe(theirs);
  });
});
