import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LINE_PEEK_BYTES, holdsFirstLineOnly } from './first-line-only';

describe('holdsFirstLineOnly', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'payroll-first-line-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const holds = async (content: string): Promise<boolean> => {
    const path = join(dir, 'file.csv');
    await writeFile(path, content);
    const handle = await open(path, 'r');
    try {
      return await holdsFirstLineOnly(handle, Buffer.byteLength(content));
    } finally {
      await handle.close();
    }
  };

  it.each([
    ['a header without a line break', 'lastName,firstName', true],
    ['a header and its line break', 'lastName,firstName\r\n', true],
    ['a header and trailing blank lines', 'lastName,firstName\n\r\n\n', true],
    ['a header and a data line', 'lastName,firstName\nDoe,Jane\n', false],
    ['a header and a data line being written', 'lastName,firstName\r\nDo', false],
    ['a header and a data line after a blank one', 'lastName,firstName\n\nDoe,Jane', false],
    ['a line break in a bare-CR file', 'lastName,firstName\rDoe,Jane\r', false],
  ])('%s', async (_what, content, expected) => {
    expect(await holds(content)).toBe(expected);
  });

  it('does not read a file larger than it looks into, and calls it more than a header', async () => {
    expect(await holds(`${'x'.repeat(FIRST_LINE_PEEK_BYTES)}\n`)).toBe(false);
  });
});
