import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whyNotFiled } from './archive-step';

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('why a file could not be filed away, in words', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'archive-words-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('names a full disk and the folder on it', async () => {
    const dir = join(root, 'uploaded', '2026-11-24');
    const words = await whyNotFiled(root, dir, fsError('ENOSPC', "ENOSPC: no space left on device, copyfile 'a' -> 'b'"));
    expect(words).toBe(`the disk that holds ${dir} is full; free some space on it`);
  });

  it('names a read-only disk or share, not the code', async () => {
    const words = await whyNotFiled(root, join(root, 'rejected'), fsError('EROFS', "EROFS: read-only file system, mkdir 'x'"));
    expect(words).toBe(`${root} cannot be written (a read-only disk or share, or this user may not change it); make it writable for this user`);
  });

  it('names a file of the user\'s that stands where the archive folder must be', async () => {
    await writeFile(join(root, 'duplicates'), 'notes');
    const words = await whyNotFiled(root, join(root, 'duplicates'), fsError('EEXIST', "EEXIST: file already exists, mkdir 'x'"));
    expect(words).toBe(`a file named "duplicates" in ${root} is where the folder of that name must be; move or rename that file`);
  });

  it('keeps the system\'s words for what the clerk cannot mend, and for a lock on a folder that may be written', async () => {
    expect(await whyNotFiled(root, join(root, 'rejected'), fsError('EIO', 'EIO: i/o error, rename'))).toBe('EIO: i/o error, rename');
    expect(await whyNotFiled(root, join(root, 'rejected'), fsError('EPERM', 'EPERM: operation not permitted, rename'))).toBe('EPERM: operation not permitted, rename');
  });
});
