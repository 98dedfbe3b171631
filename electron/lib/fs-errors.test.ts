import { lstat, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { busyBackoffMs, classifyFsError, describeError, errorCode, errorPath } from './fs-errors';

function fsError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

describe('classifyFsError', () => {
  it('treats a real missing file as gone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'watcher-errors-'));
    try {
      const error = await stat(join(dir, 'missing.csv')).then(() => undefined, (e: unknown) => e);
      expect(errorCode(error)).toBe('ENOENT');
      expect(classifyFsError(error)).toBe('gone');
      expect(errorPath(error)).toBe(join(dir, 'missing.csv'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each(['EBUSY', 'EPERM', 'EACCES'])('treats %s as busy (retried with backoff)', (code) => {
    expect(classifyFsError(fsError(code))).toBe('busy');
  });

  it.each([fsError('EIO'), new Error('no code'), 'a string', undefined])('treats %s as other', (error) => {
    expect(classifyFsError(error)).toBe('other');
  });
});

describe('errorPath', () => {
  it('is undefined for errors that name no path', () => {
    expect(errorPath(new Error('no path'))).toBeUndefined();
    expect(errorPath({ path: 42 })).toBeUndefined();
  });
});

describe('busyBackoffMs', () => {
  it('doubles from the base delay and stops at the cap', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => busyBackoffMs(n, 250, 5_000))).toEqual([250, 500, 1000, 2000, 4000, 5000]);
  });
});

describe('describeError', () => {
  it('escapes line breaks and reordering marks in the paths a file-system error quotes', async () => {
    const path = join(tmpdir(), 'no-such-folder', 'a\n2026-01-01 INFO forged\u202eb.csv');
    const error = await lstat(path).catch((e: unknown) => e);
    const text = describeError(error);
    expect(text).toContain('a\\u000a2026-01-01 INFO forged\\u202eb.csv');
    expect(text).not.toMatch(/[\n\u202e]/);
  });

  it('reads messages from errors and anything else', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    // Our own messages keep their line breaks (a list of problems).
    expect(describeError(new Error('the settings file is invalid:\n  - watch.folder: required'))).toBe('the settings file is invalid:\n  - watch.folder: required');
    expect(describeError(42)).toBe('42');
  });
});
