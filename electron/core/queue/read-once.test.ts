import { createHash } from 'node:crypto';
import { rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/local-server';
import { readOnce } from './read-once';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('queue-read-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe('readOnce', () => {
  it('hashes every byte while the consumer sees the same bytes', async () => {
    const data = Buffer.alloc(3 * 1024 * 1024 + 17, 'abc\n');
    await writeFile(join(dir, 'f.csv'), data);
    const result = await readOnce(join(dir, 'f.csv'), async (input) => {
      let n = 0;
      for await (const chunk of input) n += (chunk as Buffer).length;
      return n;
    });
    expect(result).toMatchObject({ md5: md5(data), bytes: data.length, csv: data.length, before: { size: data.length } });
    expect(result.after?.size).toBe(data.length);
  });

  it('hands the consumer chunks it may keep: the next read never overwrites them', async () => {
    const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => `row ${i}\n`).join(''));
    await writeFile(join(dir, 'f.csv'), data);
    const result = await readOnce(join(dir, 'f.csv'), async (input) => {
      const kept: Buffer[] = [];
      for await (const chunk of input) kept.push(chunk as Buffer);
      return Buffer.concat(kept);
    });
    expect(result.csv.equals(data)).toBe(true);
    expect(result.md5).toBe(md5(data));
  });

  it('still hashes the whole file when the consumer stops early', async () => {
    const data = Buffer.alloc(5 * 1024 * 1024, 'x');
    await writeFile(join(dir, 'f.csv'), data);
    const result = await readOnce(join(dir, 'f.csv'), async (input) => {
      for await (const chunk of input) return (chunk as Buffer).length;
      return 0;
    });
    expect(result.md5).toBe(md5(data));
    expect(result.bytes).toBe(data.length);
  });

  it('tells that the file was deleted while it was read', async () => {
    const path = join(dir, 'f.csv');
    const data = Buffer.alloc(4 * 1024 * 1024, 'y');
    await writeFile(path, data);
    let deleted = false;
    const result = await readOnce(path, async (input) => {
      for await (const _chunk of input) {
        if (deleted) continue;
        deleted = true;
        await unlink(path);
      }
    });
    expect(result.after).toBeUndefined();
    expect(result.md5).toBe(md5(data));
  });
});
