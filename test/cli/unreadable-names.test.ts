/**
 * A `.csv` export whose file name is not UTF-8: on Linux a Windows share mounted without iocharset=utf8, or a Windows
 * zip unpacked there, leaves names such as `census-Müller.csv` as Latin-1 bytes. The uploader cannot open or move a
 * file by such a name: it says so once while the file stays, in words the clerk can act on, never touches it, and
 * `watch --once` counts it as not taken. Real `payroll-uploader` processes, a real local server, real files.
 */
import { readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, uploaderEnv, type JsonEvent } from '../helpers/cli';
import { md5 } from '../helpers/csv-fixtures';
import { eventually, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

/** The name as the folder holds it: ü as the one Latin-1 byte 0xFC. */
const LATIN1 = Buffer.concat([Buffer.from('census-M'), Buffer.from([0xfc]), Buffer.from('ller-2026-04-12.csv')]);
/** The same name as the uploader shows it. */
const SHOWN = 'census-M\uFFFDller-2026-04-12.csv';
const SAID = `${SHOWN} cannot be read as a file name (it is not UTF-8 text, as the names of files copied from some Windows shares are; `
  + '\uFFFD marks what cannot be read): rename it, for example in the file manager, and it is taken. Until then it is not uploaded, '
  + 'and it stays in the folder untouched.';
const NOT_TAKEN = `not taken: ${SHOWN}: its name cannot be read as a file name (it is not UTF-8 text, as the names of files copied from `
  + 'some Windows shares are): rename it, for example in the file manager, and it is taken; it stays in place for the next run';

const count = (text: string, part: string): number => text.split(part).length - 1;
const said = (events: JsonEvent[]) => events.filter((e) => e.event === 'error' && String(e.data.message).includes('cannot be read as a file name'));

describe('payroll-uploader watch: a file whose name is not UTF-8', () => {
  let server: TestServer;
  let dirs: string[] = [];
  const folder = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const uploaded = (checksum: string) =>
    Object.values(server.ctx.db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as object)[0] as number;
  const latin1Path = (dir: string) => Buffer.concat([Buffer.from(`${dir}/`), LATIN1]);
  /** The file is where it was, under its own name, with its content and modification time. */
  const untouched = async (dir: string, content: string, mtimeMs: number) => {
    const names = await readdir(dir, { encoding: 'buffer' });
    expect(names.filter((name) => name.equals(LATIN1))).toHaveLength(1);
    expect(await readFile(latin1Path(dir), 'utf8')).toBe(content);
    expect((await stat(latin1Path(dir))).mtimeMs).toBe(mtimeMs);
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  it('watch --once says it once, in words, leaves the file untouched, uploads the others and exits 1', async () => {
    const env = uploaderEnv(await folder('payroll-data-'), { PAYROLL_LOG_LEVEL: 'debug' });
    const dir = await folder('payroll-watched-');
    const content = censusCsv('latin1-once');
    await writeFile(latin1Path(dir), content);
    const mtimeMs = (await stat(latin1Path(dir))).mtimeMs;
    const other = censusCsv('latin1-once-other');
    await writeFile(join(dir, 'census-ok-2026-04-12.csv'), other);

    const res = await runCli(['watch', dir, '--base-url', server.url, '--once'], env);
    expect(res.code, res.stderr).toBe(1);
    expect(count(res.stderr, SAID)).toBe(1);
    expect(count(res.stderr, NOT_TAKEN)).toBe(1);
    // Not taken for a file that went away.
    expect(res.stderr).not.toContain('disappeared');
    await untouched(dir, content, mtimeMs);
    expect(uploaded(md5(content))).toBe(0);
    expect(uploaded(md5(other))).toBe(1);
  }, 120_000);

  it('watch says it once, not at every sweep, and takes the file once it is renamed', async () => {
    const env = uploaderEnv(await folder('payroll-data-'));
    // Only the sweeps find files (polling every 10 minutes): each file below taken is one more sweep.
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({
      sweepIntervalMs: 1000, stabilityMs: 200, usePolling: true, pollIntervalMs: 600_000,
    }));
    const dir = await folder('payroll-watched-');
    const content = censusCsv('latin1-watch');
    await writeFile(latin1Path(dir), content);
    const mtimeMs = (await stat(latin1Path(dir))).mtimeMs;
    const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
    try {
      await eventually(() => said(watch.events)[0], 30_000);
      expect(said(watch.events).map((e) => e.data.message)).toEqual([SAID]);
      // Two more files, one after the other: each is found by a later sweep, which finds the first one again too.
      for (const seed of ['latin1-later-1', 'latin1-later-2']) {
        const later = censusCsv(seed);
        await writeFile(join(dir, `census-${seed}.csv`), later);
        await eventually(() => (uploaded(md5(later)) === 1 ? true : undefined), 30_000);
      }
      expect(said(watch.events)).toHaveLength(1);
      expect(count(watch.stderr(), SAID)).toBe(1);
      await untouched(dir, content, mtimeMs);
      // Renamed as the words say, it is taken.
      await rename(latin1Path(dir), join(dir, 'census-Muller-2026-04-12.csv'));
      await eventually(() => (uploaded(md5(content)) === 1 ? true : undefined), 30_000);
      expect(said(watch.events)).toHaveLength(1);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  }, 120_000);

  it('watch says it when such a file arrives, through the file events, without waiting for a sweep', async () => {
    const env = uploaderEnv(await folder('payroll-data-'));
    // A sweep once a day: a name said within the deadline below was found through the file events.
    await writeFile(join(env.PAYROLL_DATA_DIR, 'settings.json'), JSON.stringify({ sweepIntervalMs: 86_400_000, stabilityMs: 200 }));
    const dir = await folder('payroll-watched-');
    const watch = startCli(['watch', dir, '--base-url', server.url, '--json'], env);
    try {
      await eventually(() => watch.events.find((e) => e.event === 'folder' && e.data.state === 'watching'), 30_000);
      const content = censusCsv('latin1-arrives');
      await writeFile(latin1Path(dir), content);
      await eventually(() => said(watch.events)[0], 30_000);
      expect(said(watch.events).map((e) => e.data.message)).toEqual([SAID]);
      await rename(latin1Path(dir), join(dir, 'census-Muller-2026-04-12.csv'));
      await eventually(() => (uploaded(md5(content)) === 1 ? true : undefined), 30_000);
      expect(said(watch.events)).toHaveLength(1);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  }, 120_000);
});
