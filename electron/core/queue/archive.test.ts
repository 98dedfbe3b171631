import { link, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/local-server';
import { completeMove, freeTarget, moveNoClobber, suffixedName, writeErrorFile } from './archive';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('queue-archive-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('archive moves', () => {
  it('adds a numeric suffix before the extension', () => {
    expect(suffixedName('census.csv', 0)).toBe('census.csv');
    expect(suffixedName('census.csv', 2)).toBe('census (2).csv');
    expect(suffixedName('noext', 1)).toBe('noext (1)');
  });

  it('picks a name free for the file and its .error.txt', async () => {
    await mkdir(join(dir, 'rejected'));
    await writeFile(join(dir, 'rejected', 'a.csv'), 'x');
    await writeFile(join(dir, 'rejected', 'a (1).csv.error.txt'), 'someone else');
    expect(await freeTarget(join(dir, 'rejected'), 'a.csv', true)).toBe(join(dir, 'rejected', 'a (2).csv'));
    expect(await freeTarget(join(dir, 'rejected'), 'a.csv', false)).toBe(join(dir, 'rejected', 'a (1).csv'));
  });

  it('never replaces an existing file', async () => {
    await writeFile(join(dir, 'src.csv'), 'mine');
    await writeFile(join(dir, 'dst.csv'), 'theirs');
    await expect(moveNoClobber(join(dir, 'src.csv'), join(dir, 'dst.csv'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(join(dir, 'src.csv'), 'utf8')).toBe('mine');
    expect(await readFile(join(dir, 'dst.csv'), 'utf8')).toBe('theirs');
  });

  it('completes a move interrupted between link and unlink, and reports a taken or vanished target', async () => {
    const src = join(dir, 'f.csv');
    await writeFile(src, 'data');
    await mkdir(join(dir, 'up'));
    await link(src, join(dir, 'up', 'f.csv'));
    expect(await completeMove(src, join(dir, 'up', 'f.csv'))).toBe('done-before');
    expect(await readdir(dir)).toEqual(['up']);
    expect(await completeMove(src, join(dir, 'up', 'f.csv'))).toBe('done-before');

    await writeFile(src, 'new data');
    expect(await completeMove(src, join(dir, 'up', 'f.csv'))).toBe('taken');
    expect(await completeMove(src, join(dir, 'up', 'deeper', 'f.csv'))).toBe('moved');
    expect(await readFile(join(dir, 'up', 'deeper', 'f.csv'), 'utf8')).toBe('new data');
    expect(await completeMove(join(dir, 'nothing.csv'), join(dir, 'up', 'nothing.csv'))).toBe('gone');
  });

  it('keeps an .error.txt written before a crash', async () => {
    await writeErrorFile(join(dir, 'a.csv'), 'first');
    await writeErrorFile(join(dir, 'a.csv'), 'second');
    expect(await readFile(join(dir, 'a.csv.error.txt'), 'utf8')).toBe('first');
  });
});
