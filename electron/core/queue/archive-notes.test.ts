/**
 * The note beside a filed file (`<name>.error.txt`) is written after the file is filed: a note that cannot be written
 * is said, and never keeps the file itself from being filed. Real files on a full tmpfs (mounted as root): moving a
 * file there (a hard link) needs no space, the text of a new note does.
 */
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { errorCode } from '../../lib/fs-errors';
import { mountSmallDisk, type SmallDisk } from '../../../test/helpers/small-disk';


let env: QueueEnv | undefined;
let disk: SmallDisk | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
  await disk?.remove();
  disk = undefined;
});

describe('notes beside filed files', () => {
  it('a refused file is filed in rejected/ even when its .error.txt cannot be written, and the clerk is told', async () => {
    disk = await mountSmallDisk('1m', { prefix: 'payroll-no-inodes-' });
    const mountPoint = disk.path;
    const folder = join(mountPoint, 'exports');
    await mkdir(join(folder, 'rejected'), { recursive: true });
    const path = join(folder, 'census-wrong.csv');
    await writeFile(path, 'foo,bar\n1,2\n');
    // The disk filled to the last byte.
    await disk.fill();
    expect(await writeFile(join(mountPoint, 'probe'), 'x').then(() => undefined, (error: unknown) => errorCode(error))).toBe('ENOSPC');
    await rm(join(mountPoint, 'probe'), { force: true });
    env = await startQueueEnv();
    const queue = env.queue();
    const errors: string[] = [];
    queue.on('error', (error) => errors.push(error.message));
    await queue.start();
    const info = await stat(path);
    const job = queue.add({ path, name: 'census-wrong.csv', size: info.size, mtimeMs: info.mtimeMs })!;
    const done = await env.finished(queue, job.id);
    expect(done.state).toBe('rejected');
    expect(done.archivedPath).toBe(join(folder, 'rejected', 'census-wrong.csv'));
    // No empty note is left: the clerk would take it for the reason.
    expect(await readdir(join(folder, 'rejected'))).toEqual(['census-wrong.csv']);
    expect(await readdir(folder)).toEqual(['rejected']);
    expect(errors).toContainEqual(expect.stringMatching(
      new RegExp(`census-wrong\\.csv: the note ${join(folder, 'rejected', 'census-wrong.csv.error.txt').replace(/[.]/g, '\\.')} could not be written: .*; the file is filed as .*rejected/census-wrong\\.csv, and why it was refused can be seen in the upload list`),
    ));
  });
});
