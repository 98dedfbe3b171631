/**
 * `watch` given a folder this user may not list, or a file instead of a folder: said once, in plain words, with what to
 * do. Real CLI processes and a real local server; the command runs without root's power over file modes
 * (OBEYING_FILE_MODES), so a folder with mode 000 is closed to it as it is to a clerk.
 */
import { chmod, readdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OBEYING_FILE_MODES, runCli, startCli, uploaderEnv, type RunningCli } from '../helpers/cli';
import type { TestServer } from '../helpers/local-server';
import { eventually, startTestServer, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

const PLAIN = /cannot be read by this user \(access is denied\), so no file in it can be found\. Give this user read access to the folder, or choose another folder\./;

/** How many times the watcher has said, at debug level, that the folder is still not available (one each check). */
const stillUnavailable = (watch: RunningCli) => watch.stderr().split('is still not available').length - 1;

describe('payroll-uploader watch: a folder it cannot read, a file given as the folder', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async () => {
    const dir = await tempDir('payroll-watch-access-');
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    for (const dir of dirs) await chmod(dir, 0o700).catch(() => undefined);
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('watch --once on a folder it may not list says so in plain words, with what to do, and exits 1', async () => {
    const env = uploaderEnv(await folder());
    const closed = await folder();
    await chmod(closed, 0o000);
    const res = await runCli(['watch', closed, '--base-url', server.url, '--once'], env, '', OBEYING_FILE_MODES);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(PLAIN);
    expect(res.stderr).not.toContain('scandir');
  }, 120_000); // the first CLI start of the file also compiles it (tsx): slow on a loaded 2-core machine

  it('a lasting watch of a folder it may not list says so once, shows it as unreadable, and takes its files once it can read it', async () => {
    const env = uploaderEnv(await folder());
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ stabilityMs: 200 }));
    const closed = await folder();
    const content = censusCsv('closed-folder', 1);
    await writeFile(join(closed, 'census-closed.csv'), content);
    await chmod(closed, 0o000);
    const watch = startCli(['watch', closed, '--base-url', server.url, '--json'], { ...env, PAYROLL_LOG_LEVEL: 'debug' }, OBEYING_FILE_MODES);
    try {
      const states = () => watch.events.filter((e) => e.event === 'folder').map((e) => e.data.state);
      await eventually(() => states().includes('unreadable') || undefined, 60_000);
      // Several checks later (each one said only at debug level), it has still been said once, and never "watching".
      await eventually(() => stillUnavailable(watch) >= 3 || undefined, 30_000);
      const errors = watch.events.filter((e) => e.event === 'error');
      expect(errors.map((e) => e.data.message)).toEqual([expect.stringMatching(PLAIN)]);
      expect(errors[0]?.data.message).toContain('It is watched by itself once it can be read.');
      expect(watch.stderr()).not.toMatch(/Restarting the watch|Cannot list|claim folder/);
      expect(states()).toEqual(['unreadable']);

      await chmod(closed, 0o700);
      const result = await eventually(() => watch.events.find((e) => e.event === 'result'), 60_000);
      expect(result.data.state).toBe('uploaded');
      expect(states()).toEqual(['unreadable', 'watching']);
      expect(watch.stderr()).toContain('can be read again');
      expect(watch.events.filter((e) => e.event === 'error')).toHaveLength(1);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  }, 180_000);

  it('a folder it may not list that is then removed is shown as missing, no longer as unreadable', async () => {
    const env = uploaderEnv(await folder());
    const closed = await folder();
    await chmod(closed, 0o000);
    const watch = startCli(['watch', closed, '--base-url', server.url, '--json'], env, OBEYING_FILE_MODES);
    try {
      const states = () => watch.events.filter((e) => e.event === 'folder').map((e) => e.data.state);
      await eventually(() => states().includes('unreadable') || undefined, 60_000);
      // Removed as it is, never readable on the way (it is empty, and rmdir needs only the right to write in its
      // parent): opened first, it could be seen as watched for a moment, between a folder check and the removal.
      await rmdir(closed);
      // The folder check runs every second: the clerk is told to connect the drive, not to ask for access.
      await eventually(() => states().includes('missing') || undefined, 30_000);
      expect(states()).toEqual(['unreadable', 'missing']);
      expect(watch.stderr()).toContain(`Watched folder "${closed}" is not available (it does not exist)`);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  }, 180_000);

  it('a folder closed to it while it watches is said once, and said to be over when it can be read again', async () => {
    const env = uploaderEnv(await folder());
    // Found at the next sweep (chokidar says nothing of a change of mode): a sweep every second.
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ sweepIntervalMs: 1000 }));
    const watched = await folder();
    const watch = startCli(['watch', watched, '--base-url', server.url], { ...env, PAYROLL_LOG_LEVEL: 'debug' }, OBEYING_FILE_MODES);
    try {
      await eventually(() => watch.stderr().includes('Ctrl+C stops') || undefined, 60_000);
      await chmod(watched, 0o000);
      await eventually(() => PLAIN.test(watch.stderr()) || undefined, 30_000);
      const checksBefore = stillUnavailable(watch);
      await eventually(() => stillUnavailable(watch) >= checksBefore + 3 || undefined, 30_000);
      expect(watch.stderr().match(new RegExp(PLAIN.source, 'g'))).toHaveLength(1);
      expect(watch.stderr()).not.toMatch(/Restarting the watch|Cannot list|is gone/);
      await chmod(watched, 0o700);
      await eventually(() => watch.stderr().includes(`the folder ${watched} can be read now; watching it`) || undefined, 30_000);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  }, 180_000);

  it('watch given a file instead of a folder is a usage error at once (exit 2) that asks for the folder', async () => {
    const env = uploaderEnv(await folder());
    const dir = await folder();
    const file = join(dir, 'census-export.csv');
    await writeFile(file, censusCsv('a-file-given', 1));
    // Started as a lasting watch: before, it waited for a folder to appear there, forever.
    const watch = startCli(['watch', file, '--base-url', server.url], env);
    let code: number | null | undefined;
    void watch.exited.then((c) => (code = c));
    try {
      await eventually(() => (code === undefined ? undefined : true), 60_000);
      expect(code).toBe(2);
      expect(watch.stderr()).toContain(`${file} is a file, not a folder: give the folder the payroll system saves its exports in`);
      expect(watch.stderr()).not.toMatch(/does not exist yet|ENOTDIR|Ctrl\+C stops/);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
    // The file is where it was, untouched.
    expect(await readdir(dir)).toEqual(['census-export.csv']);
  }, 120_000);
});
