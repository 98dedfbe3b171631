/**
 * This computer's clock 20 minutes ahead of the service's (a wrong time zone, an unsynchronised clock): the real
 * local server runs as its own process on a clock set 20 minutes back (test/helpers/clock-skew.js), the real
 * `watch --once` uploads to it. An upload address lives 15 minutes, so by this computer's clock every one the service
 * gives has run out 5 minutes before it arrives.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../electron/server/local/local-schemas';
import { startCli, uploaderEnv } from '../helpers/cli';
import type { CliServer } from '../helpers/local-server';
import { ROOT, TEST_CLIENT, api, eventually, getToken, spawnServerCli, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

const SKEW_MS = -20 * 60_000;
const HANDSHAKE = '/law/api/v1/payroll-submissions';
/** Far more handshakes than the retry budget of `--once` (5 tries) allows: the uploader is looping. */
const LOOPING = 25;

async function listFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

describe('watch --once when this computer\'s clock is 20 minutes ahead of the service\'s', () => {
  let server: CliServer | undefined;
  let dirs: string[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  /** The local server as a process whose clock is SKEW_MS off; `dateHeader: 'none'` makes it send no `Date`. */
  const skewedServer = async (dateHeader: 'shifted' | 'none') => {
    const shim = join(ROOT, 'test/helpers/clock-skew.js');
    server = await spawnServerCli(['--port', '0', '--data-dir', await folder('skew-srv-'), '--client', `${TEST_CLIENT.id}:${TEST_CLIENT.secret}`], {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${shim}`.trim(),
      CLOCK_SKEW_MS: String(SKEW_MS), CLOCK_SKEW_DATE_HEADER: dateHeader,
    });
    return server;
  };

  const handshakes = async (url: string): Promise<number> => {
    const res = await api(url, await getToken(url), 'GET', `/local/v1/requests?limit=1000&pathPrefix=${encodeURIComponent(HANDSHAKE)}`);
    if (res.status !== 200) throw new Error(`GET /local/v1/requests answered ${res.status}`);
    return (res.body as RequestLogEntry[]).filter((row) => row.method === 'POST').length;
  };
  /** The handshake count once the log holds at least `least` (its rows are written a moment after the answer). */
  const handshakesLogged = (url: string, least: number) => eventually(async () => {
    const count = await handshakes(url);
    return count >= least ? count : undefined;
  });

  /**
   * Runs `watch --once` to its end; should it send more handshakes than its retries allow (the old loop, which never
   * ends), it is stopped there, and `looping` says so.
   */
  const watchOnce = async (url: string, dir: string) => {
    const run = startCli(['watch', dir, '--base-url', url, '--once'], uploaderEnv(await folder('skew-data-')));
    let looping = false;
    const ended = run.exited.then(() => true);
    while (!(await Promise.race([ended, new Promise<false>((r) => setTimeout(() => r(false), 250))]))) {
      if (!looping && (await handshakes(url)) > LOOPING) {
        looping = true;
        run.child.kill('SIGTERM');
      }
    }
    return { code: await run.exited, stderr: run.stderr(), looping };
  };

  it('uploads the file with one handshake when the service says its clock (Date)', async () => {
    const { url } = await skewedServer('shifted');
    const dir = await folder('skew-watch-');
    await writeFile(join(dir, 'census-2026-03-31.csv'), censusCsv('skew-shifted'));
    const res = await watchOnce(url, dir);
    expect(res.looping).toBe(false);
    expect(res.stderr).not.toMatch(/failed/);
    expect(res.code).toBe(0);
    expect(await listFiles(dir)).toEqual([expect.stringMatching(/^uploaded\/\d{4}-\d{2}-\d{2}\/census-2026-03-31\.csv$/)]);
    expect(await handshakesLogged(url, 1)).toBe(1);
  }, 120_000);

  it('without the service\'s Date: a few handshakes with backoff, then the file fails naming the clock, and stays', async () => {
    const { url } = await skewedServer('none');
    const dir = await folder('skew-watch-');
    await writeFile(join(dir, 'census-2026-03-31.csv'), censusCsv('skew-no-date'));
    const res = await watchOnce(url, dir);
    expect(res.looping).toBe(false);
    expect(res.code).toBe(1);
    // Each handshake counted as a failed try: the 5 tries of --once, and no more. (The clock is 20 minutes ahead; by
    // the expiry alone it can only be told to be about 5 minutes ahead, as the address's life is not known.)
    expect(await handshakesLogged(url, 5)).toBe(5);
    expect(res.stderr).toMatch(
      /failed: census-2026-03-31\.csv: this computer's clock or time zone differs from the service's by more than [45] minutes: .*check this computer's date, time and time zone settings; it stays queued for the next run/,
    );
    // Nothing lost: the file waits, claimed (with the record of the service it was claimed for), for the next run.
    expect(await listFiles(dir)).toEqual([
      expect.stringMatching(/^\.processing\/[^/]+\/\.claims\/census-2026-03-31\.csv$/),
      expect.stringMatching(/^\.processing\/[^/]+\/census-2026-03-31\.csv$/),
    ]);
  }, 120_000);
});
