/**
 * The watch after filing (filed-watch.ts), with real files, the real queue and the local server: a file whose
 * modification time alone was set (a backup tool, an antivirus, `touch`) is not taken for rows written late, while
 * bytes overwritten in place still are, also when the modification time is set back; and an original held by a
 * journal that was since made new is never in the way of the new journal's job 1. A restarted queue looks at its
 * filed files at once and its stop() waits for that look, so each look below is made by a restart, not waited for.
 */
import { appendFile, lstat, mkdtemp, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, tempDir } from '../../../test/helpers/local-server';
import { censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import type { Job } from './job-types';
import { JOURNAL_FILE } from './journal';
import type { UploadQueue } from './upload-queue';

let env: QueueEnv | undefined;
let far: string | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
  if (far) await rm(far, { recursive: true, force: true });
  far = undefined;
});

/** A folder on another file system than the temp dir (/dev/shm, a tmpfs on Linux, where the tests run). */
async function otherDrive(): Promise<string> {
  far = await mkdtemp(join('/dev/shm', 'payroll-filed-watch-far-'));
  const near = await tempDir('filed-watch-near-');
  // Without two volumes nothing is held aside and nothing here would test the held original.
  expect((await stat(far)).dev, '/dev/shm must be another file system than the temp dir').not.toBe((await stat(near)).dev);
  await rm(near, { recursive: true, force: true });
  return far;
}

const gone = (path: string) => lstat(path).then(() => false, () => true);
/** A time well away from now, as a backup tool restoring the original's time would set it. */
const TOUCHED = new Date('2026-01-05T10:00:00Z');

/** Starts a queue on the env's journal and stops it: one look at every watched file, with its errors. */
async function oneLook(queue: UploadQueue): Promise<string[]> {
  const errors: string[] = [];
  queue.on('error', (error) => errors.push(error.message));
  await queue.start();
  await queue.stop();
  return errors;
}

/** The same number of bytes, one of them other: what a tool overwriting the file in place leaves. */
const sameSizeOther = (content: string) => content.replace('Jane', 'Joan');

describe('the watch after filing', () => {
  it('on one drive, a filed file whose time alone was set stays watched, without an alarm; bytes overwritten in place are said', async () => {
    env = await startQueueEnv();
    const content = censusCsv('touched-same-drive');
    const first = env.queue({ afterFilingMs: 60_000 });
    await first.start();
    const done = await env.finished(first, first.add(await env.write('census-touched.csv', content))!.id);
    await first.stop();
    expect(done.state).toBe('uploaded');
    expect(done.watchUntil).toBeDefined();
    const filed = done.archivedPath!;

    await utimes(filed, TOUCHED, TOUCHED);
    const next = env.queue({ afterFilingMs: 60_000 });
    expect(await oneLook(next)).toEqual([]);
    const looked = next.job(done.id)!;
    expect(looked.watchUntil).toBe(done.watchUntil);
    expect(looked.lastError).toBeUndefined();
    // The time whose bytes were found the same is the one looked for from then on: the file is not read again.
    expect(looked.mtimeMs).toBe(TOUCHED.getTime());
    expect(await readFile(filed, 'utf8')).toBe(content);

    // A tool that writes other bytes over the same ones (the size unchanged) changed the file: that is said.
    expect(sameSizeOther(content)).toHaveLength(content.length);
    await writeFile(filed, sameSizeOther(content), { flag: 'r+' });
    const last = env.queue({ afterFilingMs: 60_000 });
    const errors = await oneLook(last);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^census-touched\.csv changed after it was uploaded and was filed away: what changed was not sent; the changed file is /);
    expect(last.job(done.id)!.watchUntil).toBeUndefined();
    expect(await readFile(filed, 'utf8')).toBe(sameSizeOther(content));
  });

  it('across drives, a held original whose time alone was set is deleted at the end of the watch; one overwritten in place is kept as not sent', async () => {
    env = await startQueueEnv({}, { archive: { dir: await otherDrive() } });
    const content = censusCsv('touched-held');
    const overContent = censusCsv('overwritten-held');
    const first = env.queue({ afterFilingMs: 60_000 });
    await first.start();
    const touched = await env.finished(first, first.add(await env.write('census-held.csv', content))!.id);
    const over = await env.finished(first, first.add(await env.write('census-over.csv', overContent))!.id);
    await first.stop();
    expect(await readFile(touched.heldPath!, 'utf8')).toBe(content);

    await utimes(touched.heldPath!, TOUCHED, TOUCHED);
    // Other bytes over the same ones, and the time set as the touched one's: only the bytes tell the two apart.
    await writeFile(over.heldPath!, sameSizeOther(overContent), { flag: 'r+' });
    await utimes(over.heldPath!, TOUCHED, TOUCHED);
    // A start after the watch's end (its clock two minutes on): this look is the last one.
    const next = env.queue({ afterFilingMs: 60_000, now: () => Date.now() + 120_000 });
    const errors = await oneLook(next);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^census-over\.csv changed after it was uploaded and was filed away/);
    expect(await readFile(join(env.folder, 'not-sent', 'census-over.csv'), 'utf8')).toBe(sameSizeOther(overContent));
    expect(await readFile(over.archivedPath!, 'utf8')).toBe(overContent);

    expect(next.job(touched.id)!.watchUntil).toBeUndefined();
    expect(next.job(touched.id)!.lastError).toBeUndefined();
    expect(await gone(touched.heldPath!)).toBe(true);
    expect(await gone(join(env.folder, 'not-sent', 'census-held.csv'))).toBe(true);
    expect(await readFile(touched.archivedPath!, 'utf8')).toBe(content);
  });

  it('across drives, a held original overwritten in place with its modification time set back is kept as not sent, not deleted', async () => {
    env = await startQueueEnv({}, { archive: { dir: await otherDrive() } });
    const content = censusCsv('time-set-back');
    const first = env.queue({ afterFilingMs: 60_000 });
    await first.start();
    const done = await env.finished(first, first.add(await env.write('census-back.csv', content))!.id);
    await first.stop();
    const held = done.heldPath!;
    // A backup tool sets the time (whole seconds, so it can be set again to the very same value); one look journals it.
    await utimes(held, TOUCHED, TOUCHED);
    expect(await oneLook(env.queue({ afterFilingMs: 60_000 }))).toEqual([]);

    // A copy tool that keeps the source's times: other bytes of the same size, and the very modification time it had.
    await writeFile(held, sameSizeOther(content), { flag: 'r+' });
    await utimes(held, TOUCHED, TOUCHED);
    expect((await stat(held)).mtimeMs).toBe(TOUCHED.getTime());
    // The look after the watch's end, which deletes a held original that stayed unchanged.
    const next = env.queue({ afterFilingMs: 60_000, now: () => Date.now() + 120_000 });
    const errors = await oneLook(next);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^census-back\.csv changed after it was uploaded and was filed away: what changed was not sent/);
    expect(await readFile(join(env.folder, 'not-sent', 'census-back.csv'), 'utf8')).toBe(sameSizeOther(content));
    expect(await readFile(done.archivedPath!, 'utf8')).toBe(content);
  });

  it('across drives, a share that dropped during the watch keeps the held original watched; rows written once it is back are said', async () => {
    env = await startQueueEnv({}, { archive: { dir: await otherDrive() } });
    const content = censusCsv('held-on-a-share');
    const first = env.queue({ afterFilingMs: 60_000 });
    await first.start();
    const done = await env.finished(first, first.add(await env.write('census-share.csv', content))!.id);
    const cleaned = await env.finished(first, first.add(await env.write('census-cleaned.csv', censusCsv('cleaned-up')))!.id);
    await first.stop();
    const held = done.heldPath!;
    expect(await readFile(held, 'utf8')).toBe(content);

    // The share drops: every path in the watched folder answers "no such file", as an unmounted share does.
    const away = `${env.folder}-unmounted`;
    await rename(env.folder, away);
    const during = env.queue({ afterFilingMs: 60_000 });
    expect(await oneLook(during)).toEqual([]);
    // Nothing can be said of the held original: it is still watched, not taken for moved or deleted.
    expect(during.job(done.id)!.watchUntil).toBe(done.watchUntil);
    expect(during.job(done.id)!.heldPath).toBe(held);

    // Back, with rows the export tool wrote late: they are said, and the original is kept in sight. The other held
    // original's folder was removed outright meanwhile, in a folder that answers: that one is gone, its watch ended.
    await rename(away, env.folder);
    await appendFile(held, '\n');
    expect(during.job(cleaned.id)!.watchUntil).toBe(cleaned.watchUntil);
    await rm(dirname(cleaned.heldPath!), { recursive: true });
    const back = env.queue({ afterFilingMs: 60_000 });
    const errors = await oneLook(back);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^census-share\.csv changed after it was uploaded and was filed away: what changed was not sent/);
    expect(await readFile(join(env.folder, 'not-sent', 'census-share.csv'), 'utf8')).toBe(`${content}\n`);
    expect(await readFile(done.archivedPath!, 'utf8')).toBe(content);
    expect(back.job(cleaned.id)!.watchUntil).toBeUndefined();
    expect(back.job(cleaned.id)!.lastError).toBeUndefined();
  });

  it('an original held before the journal was made new is kept, and the new journal\'s job of the same id and name is filed and held', async () => {
    env = await startQueueEnv({}, { archive: { dir: await otherDrive() } });
    const before = censusCsv('held-by-the-old-journal');
    const old = env.queue({ afterFilingMs: 60_000 });
    await old.start();
    const oldJob = await env.finished(old, old.add(await env.write('census.csv', before))!.id);
    await old.stop();
    expect(await readFile(oldJob.heldPath!, 'utf8')).toBe(before);

    // The journal is made new (a damaged one removed, as its error tells the clerk): its jobs are numbered from 1 again.
    for (const file of [JOURNAL_FILE, `${JOURNAL_FILE}-wal`, `${JOURNAL_FILE}-shm`]) await rm(join(env.dataDir, file), { force: true });
    const after = censusCsv('filed-by-the-new-journal');
    const queue = env.queue({ afterFilingMs: 60_000 });
    const errors: string[] = [];
    queue.on('error', (error) => errors.push(error.message));
    await queue.start();
    const job = queue.add(await env.write('census.csv', after))!;
    expect(job.id).toBe(oldJob.id);
    const done = await eventually<Job | string>(() => errors[0] ?? (queue.job(job.id)?.archivedAt !== undefined ? queue.job(job.id) : undefined), 30_000);
    expect(errors).toEqual([]);
    const filed = done as Job;
    expect(await readFile(filed.archivedPath!, 'utf8')).toBe(after);
    expect(filed.heldPath).toBeDefined();
    expect(filed.heldPath).not.toBe(oldJob.heldPath);
    expect(await readFile(filed.heldPath!, 'utf8')).toBe(after);
    // The old journal's held original is the user's file still: there, as it was.
    expect(await readFile(oldJob.heldPath!, 'utf8')).toBe(before);
    expect(await readFile(oldJob.archivedPath!, 'utf8')).toBe(before);
  });
});
