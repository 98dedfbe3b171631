/**
 * Who may read what is filed: payroll files (names, SSNs, pay) from a watched folder only its owner may open, filed
 * into an archive folder the uploader makes. Real files through the real queue and a real local server, under the
 * umask most export tools run with (022: new files 0644, new folders 0755), on one drive and onto another (/dev/shm,
 * a tmpfs). Folders the uploader makes for filing are 0700, its notes and copies 0600, and a filed file keeps no
 * access for group or others; folders the clerk made stay as they were.
 */
import { appendFile, chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, tempDir } from '../../../test/helpers/local-server';
import { CENSUS_HEADER, censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import { makeFilingFolder } from './archive';
import type { Job } from './job-types';
import type { UploadQueue } from './upload-queue';

/** A path's permission bits, written as `chmod` takes them ('600'), so a failure reads plainly. */
const modeOf = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

let umask: number;
let env: QueueEnv | undefined;
let dirs: string[] = [];
beforeEach(() => {
  umask = process.umask(0o022);
});
afterEach(async () => {
  process.umask(umask);
  await env?.close();
  env = undefined;
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

/** A folder the clerk made, readable by everyone (as `mkdir` makes one under umask 022). */
async function clerkFolder(made: Promise<string>): Promise<string> {
  const dir = await made;
  dirs.push(dir);
  await chmod(dir, 0o755);
  return dir;
}

/** Writes an export into the watched folder (0700, as the clerk keeps it), as a umask-022 export tool does: 0644. */
async function exportFile(queue: UploadQueue, name: string, content: string): Promise<Job> {
  const path = join(env!.folder, name);
  await writeFile(path, content);
  const info = await stat(path);
  expect(info.mode & 0o777).toBe(0o644);
  return queue.add({ path, name, size: info.size, mtimeMs: info.mtimeMs })!;
}

describe('the modes of what is filed, under umask 022', () => {
  it('on one drive: every folder made for filing is 0700, filed files and notes 0600, the clerk\'s folders as they were', async () => {
    const clerk = await clerkFolder(tempDir('payroll-clerk-'));
    const archive = join(clerk, 'payroll', 'archive');
    env = await startQueueEnv({}, { archive: { dir: archive } });
    await chmod(env.folder, 0o700);
    const queue = env.queue();
    await queue.start();

    const uploaded = await env.finished(queue, (await exportFile(queue, 'census-ok.csv', censusCsv('modes-ok'))).id);
    const warned = await env.finished(queue, (await exportFile(queue, 'census-warn.csv', `${CENSUS_HEADER}\nDoe,Jane,W-1,2020-01-31,ACTIVE\nDoe,Jim,W-2,2020-02-30,ACTIVE\n`)).id);
    const refused = await env.finished(queue, (await exportFile(queue, 'census-bad.csv', 'foo,bar\n1,2\n')).id);
    const duplicate = await env.finished(queue, (await exportFile(queue, 'census-again.csv', censusCsv('modes-ok'))).id);
    expect([uploaded.state, warned.state, refused.state, duplicate.state]).toEqual(['uploaded', 'uploaded', 'rejected', 'duplicate']);

    const day = dirname(uploaded.archivedPath!);
    expect(dirname(day)).toBe(join(archive, 'uploaded'));
    const made = [join(clerk, 'payroll'), archive, join(archive, 'uploaded'), day, join(archive, 'rejected'), join(archive, 'duplicates')];
    expect(await Promise.all(made.map(modeOf))).toEqual(made.map(() => '700'));
    const filed = [uploaded.archivedPath!, warned.archivedPath!, warned.warningsPath!, refused.archivedPath!, `${refused.archivedPath!}.error.txt`, duplicate.archivedPath!];
    expect(filed.map((f) => dirname(f))).toEqual([day, day, day, join(archive, 'rejected'), join(archive, 'rejected'), join(archive, 'duplicates')]);
    expect(await Promise.all(filed.map(modeOf))).toEqual(filed.map(() => '600'));
    // The clerk's own folders are left as they were.
    expect(await modeOf(clerk)).toBe('755');
    expect(await modeOf(env.folder)).toBe('700');
  }, 120_000);

  it('onto another drive: the copy is 0600, the folders made 0700, and the original held and then kept in not-sent/ too', async () => {
    const far = await clerkFolder(mkdtemp(join('/dev/shm', 'payroll-archive-far-')));
    env = await startQueueEnv({}, { archive: { dir: far } });
    await chmod(env.folder, 0o700);
    expect((await stat(far)).dev, '/dev/shm must be another file system than the temp dir').not.toBe((await stat(env.folder)).dev);
    const queue = env.queue();
    const errors: string[] = [];
    queue.on('error', (error) => errors.push(error.message));
    await queue.start();
    const content = censusCsv('modes-far');
    const job = await env.finished(queue, (await exportFile(queue, 'census-far.csv', content)).id);
    expect(job.state).toBe('uploaded');

    const day = dirname(job.archivedPath!);
    expect(await Promise.all([join(far, 'uploaded'), day].map(modeOf))).toEqual(['700', '700']);
    expect(await modeOf(job.archivedPath!)).toBe('600');
    expect(await modeOf(far)).toBe('755');
    // The original, held aside on its own drive while an export tool might still write to it.
    const held = job.heldPath!;
    expect(held).toBe(join(env.folder, '.payroll-held', `${job.id}-${job.createdAt}`, 'census-far.csv'));
    expect(await Promise.all([join(env.folder, '.payroll-held'), dirname(held)].map(modeOf))).toEqual(['700', '700']);

    // The tool writes more rows into it: the whole file is kept in not-sent/, for the clerk, and others may not read it.
    await appendFile(held, 'Doe,Late,late-1,2020-01-31,ACTIVE\n');
    const kept = join(env.folder, 'not-sent', 'census-far.csv');
    // Said once the file is moved there and kept to its owner (the file is there a moment before its mode is set).
    await eventually(() => errors.find((message) => message.startsWith('census-far.csv changed after it was uploaded')), 30_000);
    expect(await readFile(kept, 'utf8')).toBe(`${content}Doe,Late,late-1,2020-01-31,ACTIVE\n`);
    expect(await modeOf(join(env.folder, 'not-sent'))).toBe('700');
    expect(await modeOf(kept)).toBe('600');
  }, 120_000);
});

it('keeps a folder made for filing 0700 whatever the umask where the group may not write, and leaves one already there as it is', async () => {
  const base = await clerkFolder(tempDir('payroll-filing-'));
  await mkdir(join(base, 'mine'), { mode: 0o755 });
  await chmod(join(base, 'mine'), 0o755);
  process.umask(0o002);
  await makeFilingFolder(join(base, 'mine', 'a', 'b'));
  expect(await Promise.all(['mine', 'mine/a', 'mine/a/b'].map((p) => modeOf(join(base, p))))).toEqual(['755', '700', '700']);
  await makeFilingFolder(join(base, 'mine'));
  expect(await modeOf(join(base, 'mine'))).toBe('755');
});

describe('in a folder shared with its group (setgid, group-writable: 2775), under umask 022', () => {
  /** A group no account of this computer has: the folder's, as an administrator sets up a shared folder. */
  const GROUP = 61_000;
  const fullModeOf = async (path: string) => ((await stat(path)).mode & 0o7777).toString(8);
  const groupOf = async (path: string) => (await stat(path)).gid;
  const sharedFolder = async (mode: number) => {
    const dir = await clerkFolder(tempDir('payroll-shared-'));
    // Root may give a folder any group; a clerk's uploader only its own groups (folder-access.ts).
    await chown(dir, process.getuid!(), GROUP);
    await chmod(dir, mode);
    return dir;
  };

  it('every level made for filing takes the folder\'s group access and setgid bit, never access for others; files stay owner-only', async () => {
    expect(process.getuid?.(), 'a folder of another group takes root').toBe(0);
    const shared = await sharedFolder(0o2775);
    await makeFilingFolder(join(shared, 'uploaded', '2026-11-24'));
    for (const dir of ['uploaded', 'uploaded/2026-11-24']) {
      expect({ dir, mode: await fullModeOf(join(shared, dir)), gid: await groupOf(join(shared, dir)) }).toEqual({ dir, mode: '2770', gid: GROUP });
    }
    // Through the real queue: the folders it files into, and what it files.
    env = await startQueueEnv({}, { archive: { dir: join(shared, 'archive') } });
    const queue = env.queue();
    await queue.start();
    const uploaded = await env.finished(queue, (await exportFile(queue, 'census-shared.csv', censusCsv('modes-shared'))).id);
    const refused = await env.finished(queue, (await exportFile(queue, 'census-shared-bad.csv', 'foo,bar\n1,2\n')).id);
    const made = [join(shared, 'archive'), join(shared, 'archive', 'uploaded'), dirname(uploaded.archivedPath!), join(shared, 'archive', 'rejected')];
    expect(await Promise.all(made.map(fullModeOf))).toEqual(made.map(() => '2770'));
    expect(await Promise.all(made.map(groupOf))).toEqual(made.map(() => GROUP));
    const files = [uploaded.archivedPath!, refused.archivedPath!, `${refused.archivedPath!}.error.txt`];
    expect(await Promise.all(files.map(modeOf))).toEqual(files.map(() => '600'));
  }, 120_000);

  it('a folder shared with its group without the setgid bit: made in that group all the same; one the group may only read gives none', async () => {
    const shared = await sharedFolder(0o775);
    await makeFilingFolder(join(shared, 'rejected'));
    expect([await fullModeOf(join(shared, 'rejected')), await groupOf(join(shared, 'rejected'))]).toEqual(['770', GROUP]);
    const readOnly = await sharedFolder(0o2755);
    await makeFilingFolder(join(readOnly, 'duplicates'));
    expect(await fullModeOf(join(readOnly, 'duplicates'))).toBe('700');
  });
});
