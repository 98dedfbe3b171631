import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, eventually } from '../../test/helpers/local-server';
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

/** A lock file as a holder with `pid` on `host` left it, its last heartbeat `ageMs` ago by this machine's clock. */
async function lockOf(path: string, pid: number, ageMs: number, host = hostname()): Promise<string> {
  const text = `${JSON.stringify({ pid, host, since: '2026-01-01T00:00:00.000Z', what: 'uploader' })}\n`;
  await writeFile(path, text);
  const beat = new Date(Date.now() - ageMs);
  await utimes(path, beat, beat);
  return text;
}

/** What a lock being watched says, as the clerk reads it. */
const watchedWords = (path: string, who: string, seconds: number) => `the lock file ${path} says this data folder is used by ${who}, `
  + 'but its heartbeat is not recent by this computer\'s clock, and the clocks of two computers may differ: waiting up to '
  + `${seconds} s to see whether it still runs. If it does, this one stops; if not, this one takes the data folder over`;

const HOUR = 3_600_000;

/**
 * An uploader on another machine ("other-pc": a process in a UTS namespace of its own, so with its own host name)
 * whose clock is `skewMs` off this one's (test/helpers/clock-skew.js), holding the lock at `path` with a heartbeat
 * every 100 ms. Its output: "held" once it holds the lock, "lost <reason>" if it loses it.
 */
async function otherMachine(path: string, skewMs: number): Promise<{ child: ChildProcess; output: () => string }> {
  const script = join(dir, `holder-${skewMs}.mts`);
  await writeFile(script, [
    `import { acquireProcessLock, whenLockLost } from ${JSON.stringify(fileURLToPath(new URL('./process-lock.ts', import.meta.url)))};`,
    'whenLockLost((lost) => process.stdout.write(`lost ${lost.reason}\\n`));',
    `await acquireProcessLock(${JSON.stringify(path)}, 'uploader', undefined, { heartbeatMs: 100 });`,
    "process.stdout.write('held\\n');",
    'setInterval(() => undefined, 1000);',
  ].join('\n'));
  const child = spawn('unshare', ['-u', 'sh', '-c', 'hostname other-pc && exec "$@"', 'sh',
    process.execPath, '--import', 'tsx', '--import', join(ROOT, 'test/helpers/clock-skew.js'), script], {
    cwd: ROOT, env: { ...process.env, CLOCK_SKEW_MS: String(skewMs) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  await eventually(() => (output.includes('held') ? true : undefined), 30_000);
  return { child, output: () => output };
}

describe('acquireProcessLock', () => {
  it('trusts a live pid of this machine while its heartbeat is fresh, not once it is hours old and stands still (the pid was reused)', async () => {
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

    // Two hours without a heartbeat, and none while it is watched: no uploader holds it any more, whatever runs
    // under that pid now.
    await lockOf(path, pid, 2 * HOUR);
    const said: string[] = [];
    const lock = await acquireProcessLock(path, 'uploader', undefined, { staleMs: 500, say: (m) => said.push(m) });
    expect(said).toEqual([watchedWords(path, `another uploader (process ${pid} on ${hostname()})`, 1)]);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname(), what: 'uploader' });
    await lock.release();
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(other.exitCode).toBeNull();
  });

  it('never takes the lock of an uploader on another machine that keeps beating, however far that machine\'s clock is off', async () => {
    for (const skewMs of [-HOUR, HOUR]) {
      const path = join(dir, `upload-queue-${skewMs}.lock`);
      const holder = await otherMachine(path, skewMs);
      try {
        // Its heartbeat is written by its own clock: an hour before or after this machine's time.
        await eventually(async () => (Math.abs((await stat(path)).mtimeMs - (Date.now() + skewMs)) < 60_000 ? true : undefined), 30_000);
        const text = await readFile(path, 'utf8');
        const said: string[] = [];
        // A wait far longer than the holder's beat (100 ms): the holder, held up by a loaded machine, is not taken for
        // one that stopped. The lock is refused as soon as a beat is seen.
        const refused = await acquireProcessLock(path, 'uploader', undefined, { staleMs: 10_000, say: (m) => said.push(m) }).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(LockedError);
        expect((refused as LockedError).message).toMatch(new RegExp(`^another uploader \\(process ${holder.child.pid} on other-pc, since .+\\) already uses this data folder; stop it first, or give this one its own data folder \\(PAYROLL_DATA_DIR\\)\\. Lock file: `));
        // Watched, not judged by its time: the heartbeat seen to move.
        expect(said).toEqual([watchedWords(path, `another uploader (process ${holder.child.pid} on other-pc)`, 10)]);
        expect(await readFile(path, 'utf8')).toBe(text);
        expect(holder.output()).toBe('held\n');
      } finally {
        holder.child.kill('SIGKILL');
      }
    }
  });

  it('takes the lock of another machine once its heartbeat stood still while watched, however far its time is off', async () => {
    for (const ageMs of [HOUR, -HOUR]) {
      const path = join(dir, `upload-queue-${ageMs}.lock`);
      await lockOf(path, 4242, ageMs, 'other-pc');
      const said: string[] = [];
      const lock = await acquireProcessLock(path, 'uploader', undefined, { staleMs: 1_000, say: (m) => said.push(m) });
      expect(said).toEqual([watchedWords(path, 'another uploader (process 4242 on other-pc)', 1)]);
      expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname(), what: 'uploader' });
      await lock.release();
    }
  });

  it('does not take the lock of an uploader of this machine that keeps beating after this machine\'s clock was set back', async () => {
    const path = join(dir, 'upload-queue.lock');
    const lock = await acquireProcessLock(path, 'uploader', undefined, { heartbeatMs: 100 });
    const text = await readFile(path, 'utf8');
    // Its last beat an hour ahead of the clock as it is now (the clock set back an hour after it).
    const ahead = new Date(Date.now() + HOUR);
    await utimes(path, ahead, ahead);
    const said: string[] = [];
    // A wait far longer than the holder's beat (100 ms), as above.
    const refused = await acquireProcessLock(path, 'uploader', undefined, { staleMs: 10_000, say: (m) => said.push(m) }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LockedError);
    // Watched (said once), or refused at once when a beat landed between the utimes above and the first look.
    expect(said.length).toBeLessThanOrEqual(1);
    expect(await readFile(path, 'utf8')).toBe(text);
    await lock.release();
  });

  it('ends the wait on a watched lock when told to stop, leaving the lock as it was', async () => {
    const path = join(dir, 'upload-queue.lock');
    const text = await lockOf(path, 4242, HOUR, 'other-pc');
    const stop = new AbortController();
    const waiting = acquireProcessLock(path, 'uploader', undefined, { signal: stop.signal, say: () => stop.abort() });
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(await readFile(path, 'utf8')).toBe(text);
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
