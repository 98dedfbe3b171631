/**
 * `watch` in local mode waits for each uploaded file's processing result; when the service has not finished processing
 * it by the end of the wait, the file is not counted as done: it may have rows refused. `--once` says so, with where
 * to ask, and exits 4 (not 0, which a scheduled task reports as success). The wait is counted on the monotonic clock:
 * the computer's clock set forward meanwhile does not end it. Real `payroll-uploader` processes against a real local
 * server whose fault rule delays the processing of uploads (processingDelayMs: they stay QUEUED until the test clears
 * the rule through the server's HTTP API), real files.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, uploaderEnv, type RunningCli } from '../helpers/cli';
import { clearFaults, queuedImports, setFaults } from '../helpers/api-kit';
import { ROOT, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

const HOUR = 3_600_000;
const SHIM = join(ROOT, 'test/helpers/clock-skew.js');

describe('payroll-uploader watch: a processing result not known in time', () => {
  let server: TestServer;
  let token: string;
  let dirs: string[] = [];
  let running: RunningCli[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  /** How many times an import's result was asked for (GET /local/v1/imports/{id}), as the server's request log has it. */
  const asked = (id: string) => Object.values(server.ctx.db.prepare(
    "SELECT count(*) AS n FROM request_log WHERE method = 'GET' AND path LIKE ?",
  ).get(`/local/v1/imports/${id}%`) as object)[0] as number;

  beforeAll(async () => {
    server = await startTestServer();
    token = await getToken(server.url);
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await release();
    for (const cli of running) cli.child.kill('SIGKILL');
    await Promise.all(running.map((cli) => cli.exited));
    running = [];
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  /** Holds the server's processing back: a file uploaded now stays QUEUED (ten minutes, longer than any test) until `release`. */
  const holdProcessing = () => setFaults(server.url, token, [{ pathPrefix: '/uploads/', processingDelayMs: 600_000 }]);
  /** Clears the fault rule, which ends the wait of the imports it held: the server processes them now. */
  const release = () => clearFaults(server.url, token);
  /** The imports held back: those still QUEUED, oldest first. */
  const held = () => queuedImports(server.url, token);

  /** A data folder (preflight off, quick to see a file finished) and a watched folder holding only `name`. */
  const setUp = async (name: string, extra: NodeJS.ProcessEnv = {}) => {
    const env = uploaderEnv(await folder('payroll-data-'), extra);
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ preflight: 'off', stabilityMs: 300 }));
    const dir = await folder('payroll-watched-');
    await writeFile(join(dir, name), censusCsv(name, 2));
    return { env, dir };
  };

  it('--once exits 4, saying the file was uploaded but its result is not known yet and where to ask for it', async () => {
    await holdProcessing();
    const { env, dir } = await setUp('census-slow.csv', { PAYROLL_RESULT_WAIT_S: '2' });
    const res = await runCli(['watch', dir, '--base-url', server.url, '--once', '--env', 'local'], env);
    const queued = await held();
    expect(queued, 'the file reached the server').toHaveLength(1);
    const id = queued[0] as string;
    expect(res.code, res.stderr).toBe(4);
    expect(res.stderr).toContain(
      `result not known yet: census-slow.csv was uploaded (import ${id}), but the service had not finished processing it after 2 s, `
      + `so whether all its rows were imported is not known: ask the local server for it (GET ${server.url}/local/v1/imports/${id}; `,
    );
    // Uploaded all the same: the service holds it, and it is filed as such.
    expect((await readdir(join(dir, 'uploaded'), { recursive: true })).filter((f) => f.endsWith('census-slow.csv'))).toHaveLength(1);
  }, 120_000);

  it('the wait is not ended by the computer\'s clock set forward: the result that comes after is shown', async () => {
    await holdProcessing();
    const { env, dir } = await setUp('census-jump.csv', { PAYROLL_RESULT_WAIT_S: '600' });
    const skewFile = join(env.PAYROLL_DATA_DIR, 'skew');
    await writeFile(skewFile, '0');
    const cli = startCli(['watch', dir, '--base-url', server.url, '--once', '--env', 'local', '--json'], {
      ...env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${SHIM}`.trim(), CLOCK_SKEW_FILE: skewFile,
    });
    running.push(cli);
    // Uploaded, and its result asked for (still QUEUED).
    const id = await eventually(async () => {
      const [first] = await held();
      return first !== undefined && asked(first) > 0 ? first : undefined;
    }, 60_000);
    await writeFile(skewFile, String(2 * HOUR));
    // Asked twice more since (the clock's jump has been seen by then: the shim looks at its file every 50 ms), or the
    // run is over: a wait ended by the jump asks no more.
    let over = false;
    void cli.exited.then(() => (over = true));
    const before = asked(id);
    await eventually(() => (over || asked(id) >= before + 2 ? true : undefined), 30_000);
    await release();
    expect(await cli.exited, cli.stderr()).toBe(0);
    expect(cli.events.find((e) => e.event === 'import')?.data).toMatchObject({ id, status: 'PROCESSED', acceptedRecords: 2, rejectedRecords: 0 });
    expect(cli.events.some((e) => e.event === 'importUnknown')).toBe(false);
  }, 120_000);
});
