/**
 * Wall clocks that jump or differ: this computer's clock set forward or back while `watch` runs (NTP correcting a
 * clock, a time-zone fix), and a second computer whose clock is ahead sharing the data folder. Real CLI processes run
 * on a shifted wall clock (test/helpers/clock-skew.js: only Date moves, the monotonic clock runs on as a real
 * machine's does), against a real local server, with real files.
 */
import { appendFile, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, uploaderEnv, type RunningCli } from '../helpers/cli';
import { md5 } from '../helpers/csv-fixtures';
import type { TestServer } from '../helpers/local-server';
import { ROOT, eventually, startTestServer, tempDir } from '../helpers/local-server';
import { CENSUS_HEADER } from '../helpers/queue-kit';

const HOUR = 3_600_000;
const SHIM = join(ROOT, 'test/helpers/clock-skew.js');
/** Node options that run a command on a wall clock shifted by the milliseconds in `file` (changed while it runs). */
const skewedBy = (file: string) => ({ NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${SHIM}`.trim(), CLOCK_SKEW_FILE: file });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('clocks that jump or differ', () => {
  let server: TestServer;
  let dirs: string[] = [];
  let running: RunningCli[] = [];
  const folder = async () => {
    const dir = await tempDir('payroll-clock-');
    dirs.push(dir);
    return dir;
  };
  const uploaded = (checksum: string) =>
    Object.values(server.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as object)[0] as number;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    for (const cli of running) cli.child.kill('SIGKILL');
    await Promise.all(running.map((cli) => cli.exited));
    running = [];
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  /**
   * `watch --once --max-wait` on a folder whose export is still being written (a row every 200 ms until stopped), its
   * wall clock in `skewFile`; resolves once it watches (its wait for the file has begun).
   */
  const onceWhileWriting = async (maxWait: number) => {
    const data = await folder();
    const dir = await folder();
    const skewFile = join(data, 'skew');
    await writeFile(skewFile, '0');
    await writeFile(join(data, 'settings.json'), JSON.stringify({ stabilityMs: 3000 }));
    const path = join(dir, 'census-growing.csv');
    let content = `${CENSUS_HEADER}\n`;
    await writeFile(path, content);
    let writing = true;
    const writer = (async () => {
      for (let row = 0; writing; row += 1) {
        const line = `Doe,Jane,clock-jump-${maxWait}-${row},2020-01-31,ACTIVE\n`;
        await appendFile(path, line);
        content += line;
        await pause(200);
      }
    })();
    const cli = startCli(['watch', dir, '--base-url', server.url, '--once', '--max-wait', String(maxWait), '--json'], uploaderEnv(data, skewedBy(skewFile)));
    running.push(cli);
    await eventually(() => cli.events.find((e) => e.event === 'folder' && e.data.state === 'watching'), 30_000);
    // A moment more: the wait for the file has begun by then.
    await pause(1000);
    return {
      cli, path, content: () => content,
      setClock: (ms: number) => writeFile(skewFile, String(ms)),
      stopWriting: async () => {
        writing = false;
        await writer;
      },
    };
  };

  it('watch --once --max-wait waits its full time when the clock is set forward meanwhile, and the file is sent once it settles', async () => {
    const run = await onceWhileWriting(40);
    await run.setClock(HOUR);
    // The export goes on being written for a while after the jump (a run that ended at the jump has ended by then).
    await pause(3000);
    await run.stopWriting();
    expect(await run.cli.exited, run.cli.stderr()).toBe(0);
    expect(run.cli.stderr()).not.toMatch(/still changing/);
    expect(uploaded(md5(run.content()))).toBe(1);
  }, 90_000);

  it('watch --once --max-wait ends on time when the clock is set back meanwhile, leaving the changing file for the next run', async () => {
    const run = await onceWhileWriting(4);
    await run.setClock(-HOUR);
    try {
      expect(await run.cli.exited, run.cli.stderr()).toBe(1);
    } finally {
      await run.stopWriting();
    }
    expect(run.cli.stderr()).toContain('not taken: census-growing.csv was still changing after 4 s; it stays in place for the next run');
    expect((await stat(run.path)).isFile()).toBe(true);
  }, 60_000);

  it('a second computer whose clock is 90 s ahead does not take the data folder of a live uploader: it exits 3, the first runs on', async () => {
    const data = await folder();
    const lockPath = join(data, 'upload-queue.lock');
    const first = startCli(['watch', await folder(), '--base-url', server.url, '--json'], uploaderEnv(data));
    running.push(first);
    await eventually(() => first.events.find((e) => e.event === 'folder' && e.data.state === 'watching'), 30_000);
    const lock = await readFile(lockPath, 'utf8');
    const skewFile = join(await folder(), 'skew');
    await writeFile(skewFile, String(90_000));
    // Another computer: a host name of its own (a UTS namespace), its clock 90 s ahead.
    const second = startCli(['watch', await folder(), '--base-url', server.url], uploaderEnv(data, skewedBy(skewFile)),
      ['unshare', '-u', 'sh', '-c', 'hostname other-pc && exec "$@"', 'sh']);
    running.push(second);
    // Whichever ends first: the second refused, or the first thrown off its data folder.
    const ended = await Promise.race([second.exited.then((code) => ({ second: code })), first.exited.then((code) => ({ first: code }))]);
    expect(ended, `${second.stderr()}\n${first.stderr()}`).toEqual({ second: 3 });
    expect(second.stderr()).toContain(`the lock file ${lockPath} says this data folder is used by another uploader (process ${first.child.pid} on ${hostname()}), but its heartbeat is not recent by this computer's clock`);
    expect(second.stderr()).toMatch(new RegExp(`payroll-uploader watch: another uploader \\(process ${first.child.pid} on ${hostname()}, since .+\\) already uses this data folder; stop it first, or give this one its own data folder \\(PAYROLL_DATA_DIR\\)\\. Lock file: ${lockPath}\\n`));
    // The first runs on, still holding the folder.
    expect(first.child.exitCode).toBeNull();
    expect(await readFile(lockPath, 'utf8')).toBe(lock);
    first.child.kill('SIGINT');
    expect(await first.exited, first.stderr()).toBe(0);
    expect(first.stderr()).not.toMatch(/took over|lock was lost/);
  }, 60_000);
});
