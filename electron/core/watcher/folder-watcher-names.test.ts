import { readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnreadableFileError } from './unreadable-file-error';
import { withWatcher } from '../../../test/helpers/watcher-kit';

/** `census-Müller.csv` as a Windows share mounted without iocharset=utf8 leaves it: ü as the one Latin-1 byte 0xFC. */
const latin1Name = (dir: string): Buffer => Buffer.concat([Buffer.from(`${dir}/census-M`), Buffer.from([0xfc]), Buffer.from('ller.csv')]);
const CONTENT = 'lastName,firstName\nM\u00fcller,Jan\n';

describe('createFolderWatcher: a file whose name is not UTF-8', () => {
  it('says once, while it stays, that it cannot be read as a file name, never touches it, and takes it once renamed', async () => {
    await withWatcher({}, async ({ dir, seen, countOf, waitFor, watcher, barrier }) => {
      const bad = latin1Name(dir);
      await writeFile(bad, CONTENT);
      await watcher.sweep();
      await waitFor('the name said', () => seen.errors.length > 0);
      const [error] = seen.errors;
      expect(error).toBeInstanceOf(UnreadableFileError);
      expect(error?.message).toBe('census-M\uFFFDller.csv cannot be read as a file name (it is not UTF-8 text, as the names of files copied '
        + 'from some Windows shares are; \uFFFD marks what cannot be read): rename it, for example in the file manager, and it is taken. '
        + 'Until then it is not uploaded, and it stays in the folder untouched.');
      expect((error as UnreadableFileError).path).toBe(join(dir, 'census-M\uFFFDller.csv'));
      // Later sweeps find it again and say nothing more.
      await watcher.sweep();
      await watcher.sweep();
      await barrier();
      expect(seen.errors).toHaveLength(1);
      expect(seen.stable.map((f) => f.name).filter((name) => !name.startsWith('barrier-'))).toEqual([]);
      expect((await readdir(dir, { encoding: 'buffer' })).some((name) => bad.subarray(dir.length + 1).equals(name))).toBe(true);
      expect(await readFile(bad, 'utf8')).toBe(CONTENT);
      // Renamed, it is a file like any other.
      await rename(bad, join(dir, 'census-Muller.csv'));
      await waitFor('the renamed file', () => countOf('census-Muller.csv') > 0);
      expect(seen.errors).toHaveLength(1);
    });
  });

  it('says a name that is not UTF-8 when its file arrives, from the file events, not only at the next sweep', async () => {
    // The sweep is set to 10 minutes: a name said within waitFor's deadline was found through a file event.
    await withWatcher({ sweepIntervalMs: 600_000 }, async ({ dir, seen, waitFor }) => {
      await writeFile(latin1Name(dir), CONTENT);
      await waitFor('the name said', () => seen.errors.length > 0);
      expect(seen.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^census-M\uFFFDller\.csv cannot be read as a file name/)]);
    });
  });
});
