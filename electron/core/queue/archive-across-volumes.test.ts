/**
 * Moves into an archive folder on another file system (EXDEV: no hard link, the file is copied), with real files on
 * two volumes: the temp dir and /dev/shm (a tmpfs on Linux, where the tests run). Crashes are real: a child process
 * killed with SIGKILL in the middle of the copy, or the files a crash leaves, set up here and then recovered.
 */
import { spawn } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import { appendFile, lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, tempDir } from '../../../test/helpers/local-server';
import { CENSUS_HEADER, censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { completeMove, moveNoClobber } from './archive';
import { openJournal } from './journal';

/** A temporary copy of ours, as archive.ts names it. */
const PARTIAL = /^\..+\.[0-9a-f]{12}\.payroll-copy\.part$/;

let near: string;
let far: string;
let env: QueueEnv | undefined;
beforeEach(async () => {
  near = await tempDir('archive-near-');
  far = await mkdtemp(join('/dev/shm', 'payroll-archive-far-'));
  // Without two volumes link() succeeds and nothing here would test the copy.
  expect((await stat(far)).dev, '/dev/shm must be another file system than the temp dir').not.toBe((await stat(near)).dev);
});
afterEach(async () => {
  await env?.close();
  env = undefined;
  await rm(near, { recursive: true, force: true });
  await rm(far, { recursive: true, force: true });
});

const HOUR = 3_600_000;
const gone = (path: string) => lstat(path).then(() => false, () => true);

/** A census file of about `megabytes` MB (big enough that copying it takes a while). */
function bigCensus(megabytes: number): Buffer {
  const row = 'Doe,Jane,E-0000000000,2020-01-31,ACTIVE\n';
  return Buffer.from(`${CENSUS_HEADER}\n${row.repeat(Math.ceil((megabytes * 1024 * 1024) / row.length))}`);
}

/** Size of a file, or undefined once it is gone. */
function sizeOf(path: string): number | undefined {
  try {
    return lstatSync(path).size;
  } catch {
    return undefined;
  }
}

/**
 * Runs `script` (a move into `dir`) in a child process and kills it with SIGKILL the moment a file in `dir` is shorter
 * than `full` bytes: that file, or undefined when the child ended first.
 */
async function killMidCopy(script: string, dir: string, full: number): Promise<{ name: string; size: number } | undefined> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: fileURLToPath(new URL('../../..', import.meta.url)), stdio: 'ignore' });
  let running = true;
  const exited = new Promise<void>((done) => child.on('exit', () => done())).then(() => (running = false));
  try {
    while (running) {
      for (const name of readdirSync(dir)) {
        const size = sizeOf(join(dir, name));
        if (size !== undefined && size < full) {
          child.kill('SIGKILL');
          return { name, size };
        }
      }
      // Looks again at once, letting the exit event in.
      await new Promise((next) => setImmediate(next));
    }
    return undefined;
  } finally {
    if (running) child.kill('SIGKILL');
    await exited;
  }
}

describe('archive moves across volumes', () => {
  it('a move killed mid-copy leaves no cut-off file under the name; the move done again files the whole file there', async () => {
    const content = bigCensus(24);
    const source = join(near, 'census-big.csv');
    const dir = join(far, 'uploaded', '2026-03-15');
    const target = join(dir, 'census-big.csv');
    await mkdir(dir, { recursive: true });
    const script = join(near, 'move.mts');
    const archiveModule = fileURLToPath(new URL('./archive.ts', import.meta.url));
    await writeFile(script, [
      `import { moveNoClobber } from ${JSON.stringify(archiveModule)};`,
      `await moveNoClobber(${JSON.stringify(source)}, ${JSON.stringify(target)});`,
    ].join('\n'));

    // The copy takes some milliseconds: a copy that finished before it was caught is simply done again.
    let killedAt: { name: string; size: number } | undefined;
    for (let attempt = 0; attempt < 10 && !killedAt; attempt += 1) {
      await rm(target, { force: true });
      await writeFile(source, content);
      killedAt = await killMidCopy(script, dir, content.length);
    }
    expect(killedAt, 'the child was never caught in the middle of its copy').toBeDefined();
    // The bytes were being written under a temporary name of ours, hidden from the watcher and from listings.
    expect(killedAt!.name).toMatch(PARTIAL);
    expect(await stat(source).then((s) => s.size)).toBe(content.length);
    // Whatever holds the final name (nothing, unless the kill came a moment after the copy was complete) is whole.
    const placed = await stat(target).catch(() => undefined);
    if (placed) expect(placed.size).toBe(content.length);

    // The restart: the journaled move is completed. The leftover goes, the whole file takes its planned name.
    expect(await completeMove(source, target)).toBe(placed ? 'done-before' : 'moved');
    expect(await readdir(dir)).toEqual(['census-big.csv']);
    expect(md5Of(await readFile(target))).toBe(md5Of(content));
    expect(await gone(source)).toBe(true);

    // A name taken meanwhile is refused before anything is copied: the file stays, no temporary copy is left.
    await writeFile(source, 'a newer file');
    await expect(moveNoClobber(source, target)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(source, 'utf8')).toBe('a newer file');
    expect(await readdir(dir)).toEqual(['census-big.csv']);
  });

  it('after a crash between the copy and removing the source, an identical copy counts as done; a different file as taken', async () => {
    const source = join(near, 'census.csv');
    const dir = join(far, 'duplicates');
    const target = join(dir, 'census.csv');
    const content = censusCsv('X', 50);
    await mkdir(dir);
    await writeFile(source, content);
    await writeFile(target, content);
    await writeFile(join(dir, '.census.csv.0123456789ab.payroll-copy.part'), content.slice(0, 100));
    await writeFile(join(dir, 'census (1).csv'), 'a file of the clerk');
    expect(await completeMove(source, target)).toBe('done-before');
    expect((await readdir(dir)).sort()).toEqual(['census (1).csv', 'census.csv']);
    expect(await readFile(target, 'utf8')).toBe(content);
    expect(await gone(source)).toBe(true);

    // A different file under the name is someone else's, even of the same size.
    await writeFile(source, 'AAAA');
    await writeFile(join(dir, 'other.csv'), 'BBBB');
    expect(await completeMove(source, join(dir, 'other.csv'))).toBe('taken');
    expect(await readFile(join(dir, 'other.csv'), 'utf8')).toBe('BBBB');
    // On one volume our moves are links or renames: a separate file with the same bytes is someone else's too.
    await writeFile(join(near, 'other.csv'), 'AAAA');
    expect(await completeMove(source, join(near, 'other.csv'))).toBe('taken');
    expect(await readFile(source, 'utf8')).toBe('AAAA');
  });

  it('a restarted queue files the job under its journaled name, not as "census (1).csv" beside its own copy', async () => {
    env = await startQueueEnv({}, { archive: { dir: far } });
    const content = censusCsv('EXDEV');
    const file = await env.write('census.csv', content);
    const dir = join(far, 'uploaded', '2026-03-15');
    const target = join(dir, 'census.csv');
    // What a crash after the copy left: the whole copy under its name, a leftover temporary copy, the source.
    await mkdir(dir, { recursive: true });
    await writeFile(target, content);
    await writeFile(join(dir, `.census.csv.abcdef012345.payroll-copy.part`), content.slice(0, 10));
    const journal = openJournal(env.dataDir);
    const at = Date.now();
    const { id } = journal.insertJob(file, at, '2026-03-15');
    journal.update(id, {
      md5: md5Of(content), fileType: '1', referenceDate: '2026-03-15T00:00:00Z', state: 'uploaded', uploadedAt: at, archiveTarget: target,
    }, at);
    journal.close();

    const queue = env.queue();
    await queue.start();
    const done = await env.finished(queue, id);
    expect(done.archivedPath).toBe(target);
    expect((await readdir(far, { recursive: true })).sort()).toEqual(['uploaded', join('uploaded', '2026-03-15'), join('uploaded', '2026-03-15', 'census.csv')]);
    expect(await readFile(target, 'utf8')).toBe(content);
    // The original is held on its own drive (an export tool may still be writing it), not deleted yet.
    expect(await env.tree()).toEqual([join('.payroll-held', `${id}-${at}`, 'census.csv')]);
    expect(done.heldPath).toBe(join(env.folder, '.payroll-held', `${id}-${at}`, 'census.csv'));
    expect(env.requests('/%')).toEqual([]);
  });

  it('a copy during which the source is written to is not placed: the source stays whole, nothing is deleted', async () => {
    const source = join(near, 'census-growing.csv');
    const dir = join(far, 'uploaded');
    const target = join(dir, 'census-growing.csv');
    await mkdir(dir);
    await writeFile(source, bigCensus(24));
    // An export tool still writing: rows go on being added while the move copies the file.
    let moving = true;
    let added = 0;
    const writer = (async () => {
      while (moving) {
        await appendFile(source, 'Doe,Jane,late,2020-01-31,ACTIVE\n');
        added += 1;
      }
    })();
    const result = await moveNoClobber(source, target, undefined, join(near, 'held', 'census-growing.csv')).finally(() => {
      moving = false;
    });
    await writer;
    expect(result).toBe('changed');
    expect(await readdir(dir)).toEqual([]);
    expect((await stat(source)).size).toBe(bigCensus(24).length + added * 'Doe,Jane,late,2020-01-31,ACTIVE\n'.length);
  });

  it('the original of a file filed onto another drive is held on its own drive, then deleted once it stayed unchanged', async () => {
    env = await startQueueEnv({}, { archive: { dir: far } });
    const content = censusCsv('held-then-released');
    const file = await env.write('census-held.csv', content);
    const queue = env.queue({ afterFilingMs: 1_500 });
    await queue.start();
    const job = queue.add(file)!;
    const done = await env.finished(queue, job.id);
    expect(done.heldPath).toBe(join(env.folder, '.payroll-held', `${job.id}-${job.createdAt}`, 'census-held.csv'));
    expect(await readFile(done.heldPath!, 'utf8')).toBe(content);
    expect(await readFile(done.archivedPath!, 'utf8')).toBe(content);
    // Unchanged for the watch: the held original goes, with its folders; the copy stays.
    const released = await eventually(() => (queue.job(job.id)?.watchUntil === undefined ? queue.job(job.id) : undefined), 30_000);
    expect(released.heldPath).toBeUndefined();
    expect(await gone(join(env.folder, '.payroll-held'))).toBe(true);
    expect(await env.tree()).toEqual([]);
    expect(await readFile(done.archivedPath!, 'utf8')).toBe(content);
  });

  it('a run shorter than the look\'s interval (watch --once) deletes, at its start, a held original whose watch is over', async () => {
    env = await startQueueEnv({}, { archive: { dir: far } });
    const content = censusCsv('held-short-runs');
    const first = env.queue({ afterFilingMs: 1 });
    await first.start();
    const job = first.add(await env.write('census-short.csv', content))!;
    const done = await env.finished(first, job.id);
    await first.stop();
    expect(done.heldPath).toBeDefined();
    // The next run starts and ends at once, as a --once run with nothing new does: the watch over, the original goes.
    const next = env.queue({ afterFilingMs: 1 });
    await next.start();
    await next.stop();
    expect(await gone(join(env.folder, '.payroll-held'))).toBe(true);
    expect(await readFile(done.archivedPath!, 'utf8')).toBe(content);
  });

  it('a clock set forward while a held original is watched does not end its watch: the original is kept', async () => {
    env = await startQueueEnv({}, { archive: { dir: far } });
    let skew = 0;
    const queue = env.queue({ afterFilingMs: 10 * 60_000, now: () => Date.now() + skew });
    const errors: string[] = [];
    queue.on('error', (error) => errors.push(error.message));
    await queue.start();
    // Filed first, so looked at first: the one changed below, to know when a look was made after the jump.
    const first = await env.finished(queue, queue.add(await env.write('census-first.csv', censusCsv('jump-first')))!.id);
    const content = censusCsv('jump-forward');
    const done = await env.finished(queue, queue.add(await env.write('census-jump.csv', content))!.id);
    expect(done.heldPath).toBeDefined();
    skew = HOUR;
    await appendFile(first.heldPath!, 'Doe,Jane,jump-first-late,2020-01-31,ACTIVE\n');
    await eventually(() => errors.find((m) => m.startsWith('census-first.csv changed after it was uploaded')), 30_000);
    // That look went on to census-jump.csv, an hour later by the clock; stop() waits for the look to end.
    await queue.stop();
    expect(await readFile(done.heldPath!, 'utf8')).toBe(content);
    expect(errors).toHaveLength(1);
  });

  it('a clock set back while a held original is watched does not stretch its watch: the original goes on time', async () => {
    env = await startQueueEnv({}, { archive: { dir: far } });
    let skew = 0;
    const queue = env.queue({ afterFilingMs: 1_500, now: () => Date.now() + skew });
    await queue.start();
    const done = await env.finished(queue, queue.add(await env.write('census-back.csv', censusCsv('jump-back')))!.id);
    expect(done.heldPath).toBeDefined();
    skew = -HOUR;
    await eventually(() => (queue.job(done.id)?.watchUntil === undefined ? true : undefined), 30_000);
    expect(await gone(join(env.folder, '.payroll-held'))).toBe(true);
    expect(await readFile(done.archivedPath!, 'utf8')).toBe(censusCsv('jump-back'));
  });

  it('a watch journaled by a clock an hour ahead lasts no longer than a whole watch after a restart', async () => {
    env = await startQueueEnv({}, { archive: { dir: far } });
    const ahead = env.queue({ afterFilingMs: 1_500, now: () => Date.now() + HOUR });
    await ahead.start();
    const done = await env.finished(ahead, ahead.add(await env.write('census-ahead.csv', censusCsv('journaled-ahead')))!.id);
    await ahead.stop();
    expect(done.watchUntil).toBeGreaterThan(Date.now() + HOUR - 60_000);
    const next = env.queue({ afterFilingMs: 1_500 });
    await next.start();
    await eventually(() => (next.job(done.id)?.watchUntil === undefined ? true : undefined), 30_000);
    expect(await gone(join(env.folder, '.payroll-held'))).toBe(true);
  });

  it('on one drive, a refused file is not watched: the clerk is meant to fix it where it was filed', async () => {
    env = await startQueueEnv();
    const queue = env.queue({ afterFilingMs: 60_000 });
    await queue.start();
    const job = queue.add(await env.write('census-fix.csv', 'lastName,firstName\nDoe,Jane\n'))!;
    const done = await env.finished(queue, job.id);
    expect(done.state).toBe('rejected');
    expect(done.archivedPath).toBeDefined();
    expect(done.watchUntil).toBeUndefined();
    expect(done.heldPath).toBeUndefined();
  });

  it('on one drive, rows written to a filed file are said: where they are, and that they were not sent', async () => {
    env = await startQueueEnv();
    const content = censusCsv('same-drive');
    const file = await env.write('census-same.csv', content);
    const queue = env.queue({ afterFilingMs: 60_000 });
    const errors: string[] = [];
    queue.on('error', (error) => errors.push(error.message));
    await queue.start();
    const job = queue.add(file)!;
    const done = await env.finished(queue, job.id);
    expect(done.heldPath).toBeUndefined();
    await appendFile(done.archivedPath!, 'Doe,Jane,same-drive-late,2020-01-31,ACTIVE\n');
    const said = await eventually(() => errors.find((m) => /changed after it was uploaded/.test(m)), 30_000);
    expect(said).toBe(`census-same.csv changed after it was uploaded and was filed away: what changed was not sent; the changed file is ${done.archivedPath}. `
      + 'If an export tool was still writing it, send only the rows the service lacks, in a file of their own (the service has the others); and set the stability wait in Settings above the longest pause of the tool, or have it write under a temporary name and rename the file when it is done.');
    expect(queue.job(job.id)!.watchUntil).toBeUndefined();
    expect(queue.job(job.id)!.lastError).toBe(said);
  });
});

