/**
 * The watched folder is a network share that drops between an upload and its filing: the file waits in its claim
 * folder, recorded as uploaded, said once, and is filed in uploaded/ once the folder is back, in this run or at the
 * next start; never taken up again as a new file and filed as a duplicate of its own upload. A file deleted from a
 * folder that answers is still recorded gone. Real queue, real claims, real server, real folders (the share's drop is
 * the watched folder renamed away, which answers ENOENT for every path in it, as an unmounted share does).
 */
import { renameSync, unlinkSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/helpers/local-server';
import { completeMove } from './archive';
import { censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { claimedRun, shareMountPoint, stopClaimedRuns } from '../../../test/helpers/share-kit';
import { localDay } from './file-facts';
import { CLAIMS_FOLDER } from './folder-claims';
import type { UploadQueue } from './upload-queue';

let env: QueueEnv | undefined;
afterEach(async () => {
  await stopClaimedRuns();
  await env?.close();
  env = undefined;
});

/** The share drops (the watched folder can no longer be reached) as soon as the job is journaled uploaded. */
function dropShareOnceUploaded(queue: UploadQueue, folder: string, name: string): string {
  const away = `${folder}-unmounted`;
  let dropped = false;
  queue.on('job', (job) => {
    if (dropped || job.name !== name || job.state !== 'uploaded') return;
    dropped = true;
    renameSync(folder, away);
  });
  return away;
}

const saidUnreachable = (folder: string) => `census.csv was uploaded and the service has it, but it cannot be filed away for now: `
  + `the folder ${folder} cannot be reached now (a network share that is disconnected, or a folder renamed, removed or `
  + 'closed to this user); it is filed in uploaded/ once the folder can be reached again. Nothing needs to be sent again.';

describe('filing an uploaded file while its folder cannot be reached', () => {
  it('a file deleted from a folder that answers is recorded gone; one on a share that dropped waits, said once, and is filed in uploaded/ once it is back', async () => {
    env = await startQueueEnv();
    const e = env;
    const { queue, folderClaims, logs, errors, drop } = await claimedRun(e);

    // Deleted by someone while the folder answers: today's "no longer there", nothing moved.
    let deleted = false;
    queue.on('job', (job) => {
      if (deleted || job.name !== 'gone.csv' || job.state !== 'uploaded') return;
      deleted = true;
      unlinkSync(job.path);
    });
    const gone = await drop('gone.csv', censusCsv('U-gone'));
    const goneDone = await e.finished(queue, gone.id);
    expect(goneDone.archivedPath).toBeUndefined();
    expect(logs.some((l) => l.level === 'warn' && l.message === 'gone.csv: the file was no longer there to be moved to uploaded/')).toBe(true);

    // The share drops between the upload and the filing.
    const away = dropShareOnceUploaded(queue, e.folder, 'census.csv');
    const content = censusCsv('U-share');
    const job = await drop('census.csv', content);
    const said = await eventually(() => errors.find((m) => m.startsWith('census.csv'))
      ?? (queue.job(job.id)?.archivedAt !== undefined ? 'recorded as filed' : undefined));
    expect(said).toBe(saidUnreachable(e.folder));
    expect(queue.job(job.id)).toMatchObject({ state: 'uploaded' });
    expect(queue.job(job.id)?.archivedAt).toBeUndefined();
    // Tried again with the queue's backoff, and not said again at each try.
    await eventually(() => ((queue.job(job.id)?.attempts ?? 0) >= 3 ? true : undefined));
    expect(errors.filter((m) => m.includes('census.csv'))).toEqual([said]);
    expect(logs.filter((l) => l.message.includes('census.csv') && l.message.includes('no longer there'))).toEqual([]);
    expect(await readdir(join(away, CLAIMS_FOLDER, folderClaims.owner))).toContain('census.csv');

    // The share is back: filed in uploaded/ as uploaded, by this job, sent once.
    renameSync(away, e.folder);
    const done = await e.finished(queue, job.id);
    expect(done.state).toBe('uploaded');
    expect(done.archivedPath).toBe(join(e.folder, 'uploaded', localDay(done.uploadedAt!), 'census.csv'));
    expect(await readFile(done.archivedPath!, 'utf8')).toBe(content);
    expect((await e.tree()).filter((p) => !p.startsWith(CLAIMS_FOLDER))).toEqual([join('uploaded', localDay(done.uploadedAt!), 'census.csv')]);
    expect(e.serverFiles(md5Of(content))).toHaveLength(1);
    expect(e.requests('/uploads/%').filter((r) => r.method === 'PUT')).toHaveLength(2);
  }, 60_000);

  it('a share that is back only at the next start: the file is filed in uploaded/ by its own job, never taken up again as a duplicate', async () => {
    env = await startQueueEnv();
    const e = env;
    const first = await claimedRun(e);
    const away = dropShareOnceUploaded(first.queue, e.folder, 'census.csv');
    const content = censusCsv('U-restart');
    const job = await first.drop('census.csv', content);
    const said = await eventually(() => first.errors.find((m) => m.startsWith('census.csv'))
      ?? (first.queue.job(job.id)?.archivedAt !== undefined ? 'recorded as filed' : undefined));
    expect(said).toBe(saidUnreachable(e.folder));
    await first.queue.stop();
    await first.folderClaims.stop();

    renameSync(away, e.folder);
    const second = await claimedRun(e);
    const done = await e.finished(second.queue, job.id);
    expect(second.notices).toContain('resuming the filing of 1 finished file from the last run');
    expect(done.state).toBe('uploaded');
    expect(done.archivedPath).toBe(join(e.folder, 'uploaded', localDay(done.uploadedAt!), 'census.csv'));
    expect(await readFile(done.archivedPath!, 'utf8')).toBe(content);
    await second.queue.idle();
    expect(second.adopted).toEqual([]);
    expect(second.queue.jobs().map((j) => [j.name, j.state])).toEqual([['census.csv', 'uploaded']]);
    expect((await e.tree()).filter((p) => !p.startsWith(CLAIMS_FOLDER))).toEqual([join('uploaded', localDay(done.uploadedAt!), 'census.csv')]);
    expect(e.serverFiles(md5Of(content))).toHaveLength(1);
    expect(e.requests('/uploads/%').filter((r) => r.method === 'PUT')).toHaveLength(1);
  }, 60_000);
});

describe('a move whose source cannot be looked at', () => {
  it('is not "gone" while the claim folder is missing under a share\'s mount point that still answers (empty); it is moved once that folder is back', async () => {
    // Unmounted, a share's mount point is an empty folder of the local disk: the watched folder answers, the claim
    // folder in it does not.
    const { share, claimFolder, file: source, unmount, mount, remove } = await shareMountPoint();
    const target = join(share, 'uploaded', '2026-11-24', 'census.csv');
    await unmount();

    await expect(completeMove(source, target)).rejects.toMatchObject({ name: 'FolderUnreachableError', folder: claimFolder });
    expect(await readdir(share)).toEqual([]);

    await mount();
    expect(await completeMove(source, target)).toBe('moved');
    expect(await readFile(target, 'utf8')).toBe('data');
    // Deleted from a claim folder that answers: gone, as before.
    expect(await completeMove(join(claimFolder, 'other.csv'), join(share, 'uploaded', '2026-11-24', 'other.csv'))).toBe('gone');
    await remove();
  });
});
