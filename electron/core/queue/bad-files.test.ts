import { appendFileSync, unlinkSync } from 'node:fs';
import { chmod, mkdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../shared';
import { CENSUS_HEADER, censusCsv, md5Of, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';
import type { Job } from './job-types';
import { DISAPPEARED } from './queue-core';
import type { UploadQueue } from './upload-queue';

let env: QueueEnv;
let queue: UploadQueue;
beforeAll(async () => {
  env = await startQueueEnv();
  queue = env.queue();
  await queue.start();
});
afterAll(async () => {
  await env.close();
});

/** Adds a file and waits until it is finished. */
async function run(name: string, content: string | Buffer): Promise<Job> {
  const job = queue.add(await env.write(name, content));
  if (!job) throw new Error('not added');
  return env.finished(queue, job.id);
}

async function expectRejected(job: Job, reason: string | RegExp): Promise<string> {
  expect(job.state).toBe('rejected');
  expect(job.lastError).toMatch(reason);
  expect(job.archivedPath).toBe(join(env.folder, 'rejected', job.name));
  const text = await readFile(`${job.archivedPath!}.error.txt`, 'utf8');
  expect(text).toContain(job.lastError);
  return text;
}

describe('files refused before upload end in rejected/ with the reason beside them', () => {
  it.each([
    ['census-empty.csv', '', /the file is empty/],
    ['census-header-only.csv', `${CENSUS_HEADER}\n`, /header but no data rows/],
    ['census-missing.csv', 'lastName,firstName\nDoe,Jane\n', /missing required column\(s\): employeeRegistration, hireDate, employeeStatus/],
    ['census-extra.csv', `${CENSUS_HEADER},nickname\nDoe,Jane,E1,2020-01-31,ACTIVE,JD\n`, /unknown column\(s\): nickname/],
    ['export.csv', 'a,b\n1,2\n', /file type cannot be told: no file-name rule matches "export.csv"/],
    ['census-latin1.csv', Buffer.from(`${CENSUS_HEADER}\nDo\xe9,Jane,E1,2020-01-31,ACTIVE\n`, 'latin1'), /not UTF-8/],
  ])('%s', async (name, content, reason) => {
    const job = await run(name, content);
    await expectRejected(job, reason);
    expect(await readFile(job.archivedPath!)).toEqual(Buffer.from(content));
  });

  it('refuses a file over 100 MB without reading it', async () => {
    const file = await env.write('census-huge.csv', censusCsv('H'));
    await truncate(file.path, LIMITS.fileBytes + 1);
    const hashing: number[] = [];
    const off = queue.on('progress', (p) => hashing.push(p.bytes));
    const job = queue.add({ ...file, size: LIMITS.fileBytes + 1 })!;
    const done = await env.finished(queue, job.id);
    off();
    await expectRejected(done, 'the file is larger than the 100 MB limit (104,857,600 bytes): it has 104,857,601 bytes; split it into smaller files, each under the limit, and save those into the watched folder');
    expect(hashing).toEqual([]);
    expect(done.md5).toBeUndefined();
  });

  it('refuses a path that cannot be read as a file, and moves it aside untouched', async () => {
    const dir = join(env.folder, 'census-folder.csv');
    await mkdir(dir);
    await writeFile(join(dir, 'inside.txt'), 'user data');
    const job = queue.add({ path: dir, name: 'census-folder.csv', size: 1, mtimeMs: 1 })!;
    const done = await env.finished(queue, job.id);
    await expectRejected(done, /cannot be read/);
    expect(await readFile(join(done.archivedPath!, 'inside.txt'), 'utf8')).toBe('user data');
  });

  it('retries a file without read permission, then refuses it (root can read it, so it is uploaded)', async () => {
    const file = await env.write('census-locked.csv', censusCsv('L'));
    await chmod(file.path, 0o000);
    const done = await env.finished(queue, queue.add(file)!.id);
    if (process.getuid?.() === 0) {
      expect(done.state).toBe('uploaded');
    } else {
      await expectRejected(done, /cannot be read \(EACCES\)/);
      expect(done.attempts).toBeGreaterThan(0);
    }
  });

  it('ends a file deleted while it is read as rejected, with nothing moved', async () => {
    const big = `${CENSUS_HEADER}\n${'Doe,Jane,X-1,2020-01-31,ACTIVE\n'.repeat(200_000)}`;
    const file = await env.write('census-deleted.csv', big);
    const off = queue.on('progress', (p) => {
      if (p.phase === 'hashing' && queue.job(p.id)?.name === 'census-deleted.csv') {
        off();
        unlinkSync(file.path);
      }
    });
    const done = await env.finished(queue, queue.add(file)!.id);
    expect(done).toMatchObject({ state: 'rejected', lastError: DISAPPEARED });
    expect(done.archivedPath).toBeUndefined();
    expect((await env.tree()).filter((p) => p.includes('census-deleted'))).toEqual([]);
  });

  it('reads a file again when it changed while it was read', async () => {
    const rows = 'Doe,Jane,G-1,2020-01-31,ACTIVE\n'.repeat(100_000);
    const file = await env.write('census-growing.csv', `${CENSUS_HEADER}\n${rows}`);
    const off = queue.on('progress', (p) => {
      if (p.phase === 'hashing' && queue.job(p.id)?.name === 'census-growing.csv') {
        off();
        appendFileSync(file.path, 'Roe,Jim,G-2,2020-01-31,ACTIVE\n');
      }
    });
    const done = await env.finished(queue, queue.add(file)!.id);
    const final = `${CENSUS_HEADER}\n${rows}Roe,Jim,G-2,2020-01-31,ACTIVE\n`;
    expect(done).toMatchObject({ state: 'uploaded', md5: md5Of(final), size: Buffer.byteLength(final) });
    expect(env.serverFiles(md5Of(final)).map((f) => f.status)).toEqual(['UPLOADED']);
  });

  it('gives a clashing name a numeric suffix and keeps what was there', async () => {
    await mkdir(join(env.folder, 'rejected'), { recursive: true });
    await writeFile(join(env.folder, 'rejected', 'census-clash.csv'), 'older file');
    await writeFile(join(env.folder, 'rejected', 'census-clash.csv.error.txt'), 'older reason');
    const job = queue.add(await env.write('census-clash.csv', `${CENSUS_HEADER}\n`))!;
    const done = await env.finished(queue, job.id);
    expect(done.archivedPath).toBe(join(env.folder, 'rejected', 'census-clash (1).csv'));
    expect(await readFile(join(env.folder, 'rejected', 'census-clash.csv'), 'utf8')).toBe('older file');
    expect(await readFile(join(env.folder, 'rejected', 'census-clash.csv.error.txt'), 'utf8')).toBe('older reason');
    expect(await readFile(join(env.folder, 'rejected', 'census-clash (1).csv.error.txt'), 'utf8')).toContain('no data rows');
  });

  it('counts the refused files as failures of this run', () => {
    expect(queue.failures().map((j) => j.name)).toContain('census-empty.csv');
  });
});
