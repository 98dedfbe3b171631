/**
 * The watched folder is a network share that drops after a file is claimed and before it is uploaded (as it is
 * checked, while it is read, just before its PUT): the job waits with the queue's backoff, saying the folder cannot be
 * reached, and when the folder is back the same job uploads the file and files it in uploaded/; never recorded as
 * disappeared, never sent twice. A file deleted from a folder that answers is still recorded as disappeared. Real
 * queue, real claims, real server, real folders (the share's drop is the watched folder renamed away, which answers
 * ENOENT for every path in it, as an unmounted share does). See archive-unreachable.test.ts for the filing step.
 */
import { renameSync, unlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/helpers/local-server';
import { censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { claimedRun, shareMountPoint, stopClaimedRuns } from '../../../test/helpers/share-kit';
import { localDay } from './file-facts';
import { CLAIMS_FOLDER } from './folder-claims';
import type { Job } from './job-types';
import { DISAPPEARED } from './queue-core';
import type { UploadQueue } from './upload-queue';
import { goneOrUnreachable } from './unreachable';

let env: QueueEnv | undefined;
afterEach(async () => {
  await stopClaimedRuns();
  await env?.close();
  env = undefined;
});

/** The moments the share drops at, after the file is claimed and before it is uploaded. */
const MOMENTS: { when: string; at: (queue: UploadQueue, name: string, act: () => void) => void }[] = [
  {
    when: 'as the file is checked',
    at: (queue, name, act) => queue.on('job', (job) => { if (job.name === name && job.state === 'hashing') act(); }),
  },
  {
    when: 'while the file is read',
    at: (queue, name, act) => queue.on('progress', (p) => { if (p.phase === 'hashing' && queue.job(p.id)?.name === name) act(); }),
  },
  {
    when: 'once it has an upload address',
    at: (queue, name, act) => queue.on('job', (job) => { if (job.name === name && job.state === 'uploading') act(); }),
  },
  {
    when: 'as its upload starts',
    at: (queue, name, act) => queue.on('job', (job) => {
      if (job.name === name && job.state === 'uploading' && job.putStartedAt !== undefined) act();
    }),
  },
];

/** `act` once, at the moment. */
function once(moment: (typeof MOMENTS)[number], queue: UploadQueue, name: string, act: (job: Job) => void): void {
  let done = false;
  moment.at(queue, name, () => {
    if (done) return;
    done = true;
    act(queue.jobs().find((j) => j.name === name)!);
  });
}

const saidUnreachable = (folder: string) => `the folder ${folder} cannot be reached now (a network share that is `
  + 'disconnected, or a folder renamed, removed or closed to this user); the file is sent once it can be reached again';

describe('a file whose share drops before it is uploaded', () => {
  for (const moment of MOMENTS) {
    it(`${moment.when}: a file deleted from a folder that answers disappeared; one on a share that dropped waits, and is uploaded and filed by the same job once it is back`, async () => {
      env = await startQueueEnv();
      const e = env;
      const { queue, drop } = await claimedRun(e);

      // Deleted by someone while the folder answers: recorded as disappeared, as before, nothing sent.
      once(moment, queue, 'gone.csv', (job) => unlinkSync(job.path));
      const gone = await drop('gone.csv', censusCsv('S-gone'));
      const goneDone = await e.finished(queue, gone.id);
      expect(goneDone).toMatchObject({ state: 'rejected', lastError: DISAPPEARED });
      expect(goneDone.archivedPath).toBeUndefined();
      expect(e.requests('/uploads/%').filter((r) => r.method === 'PUT')).toHaveLength(0);

      // The share drops: the job waits with the queue's backoff, several tries, never recorded as disappeared.
      const away = `${e.folder}-unmounted`;
      once(moment, queue, 'census.csv', () => renameSync(e.folder, away));
      const content = censusCsv('S-share');
      const job = await drop('census.csv', content);
      const waiting = await eventually(() => {
        const now = queue.job(job.id);
        return now?.state === 'rejected' || (now?.state === 'waiting' && now.attempts >= 2) ? now : undefined;
      });
      expect(waiting).toMatchObject({ state: 'waiting', lastError: saidUnreachable(e.folder) });

      // The share is back: the same job uploads it once and files it in uploaded/.
      renameSync(away, e.folder);
      const done = await e.finished(queue, job.id);
      expect(done.state).toBe('uploaded');
      expect(done.archivedPath).toBe(join(e.folder, 'uploaded', localDay(done.uploadedAt!), 'census.csv'));
      expect(await readFile(done.archivedPath!, 'utf8')).toBe(content);
      expect(queue.jobs().map((j) => [j.name, j.state]).sort()).toEqual([['census.csv', 'uploaded'], ['gone.csv', 'rejected']]);
      expect((await e.tree()).filter((p) => !p.startsWith(CLAIMS_FOLDER))).toEqual([join('uploaded', localDay(done.uploadedAt!), 'census.csv')]);
      expect(e.serverFiles(md5Of(content))).toHaveLength(1);
    }, 60_000);
  }
});

describe('goneOrUnreachable', () => {
  it('tells a file deleted from a folder that answers from one whose claim folder is missing under a mount point that answers', async () => {
    // Unmounted, a share's mount point is an empty folder of the local disk: the watched folder answers, the claim
    // folder in it does not.
    const { share, claimFolder, file, unmount, mount, remove } = await shareMountPoint();
    const lost = Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });

    expect(await goneOrUnreachable(join(claimFolder, 'other.csv'), share, lost)).toBe('gone');
    // There (the share came back, or it never dropped): the failure is the caller's to word.
    expect(await goneOrUnreachable(file, share, undefined)).toBeUndefined();
    expect(await goneOrUnreachable(file, share, lost)).toBeUndefined();

    await unmount();
    expect(await goneOrUnreachable(file, share, lost)).toEqual({ unreachable: claimFolder });
    await mount();
    await remove();
  });
});
