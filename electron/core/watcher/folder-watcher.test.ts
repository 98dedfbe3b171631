import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFolderWatcher } from './folder-watcher';
import { withWatcher } from '../../../test/helpers/watcher-kit';

describe('createFolderWatcher: taking files', () => {
  it('reports a dropped file once, with its path, size and mtime', async () => {
    await withWatcher({}, async ({ dir, seen, countOf, waitFor, barrier, watcher }) => {
      await writeFile(join(dir, 'census.csv'), 'a,b\n1,2\n');
      await waitFor('census.csv', () => countOf('census.csv') > 0);
      await watcher.sweep();
      await barrier();
      expect(countOf('census.csv')).toBe(1);
      const file = seen.stable.find((f) => f.name === 'census.csv');
      expect(file).toMatchObject({ path: join(dir, 'census.csv'), size: 8 });
      expect(file?.mtimeMs).toBeGreaterThan(0);
      expect(seen.errors).toEqual([]);
    });
  });

  it('reports each of 20 files dropped at once exactly once', async () => {
    await withWatcher({}, async ({ dir, countOf, waitFor, barrier, watcher }) => {
      const names = Array.from({ length: 20 }, (_, i) => `receipts-${i}.CSV`);
      await Promise.all(names.map((name, i) => writeFile(join(dir, name), `row ${i}\n`)));
      await waitFor('all 20 files', () => names.every((name) => countOf(name) > 0));
      await watcher.sweep();
      await barrier();
      expect(names.map(countOf)).toEqual(names.map(() => 1));
    });
  });

  it('does not take a file that is still being written slowly, and takes its final version', async () => {
    // The window is over 4 times the writer's pause, so a test process held up for a while (a loaded machine) between
    // two writes does not pass for a writer that stopped; the writing lasts 2.5 windows, and the file is looked at
    // every 500 ms (a quarter window, at most 500 ms), more often than it is written: a check that saw no change
    // between two looks must still not take it.
    await withWatcher({ stabilityMs: 3000 }, async ({ dir, seen, countOf, waitFor, watcher }) => {
      const path = join(dir, 'slow.csv');
      let writing = true;
      const sizesWhileWriting: number[] = [];
      watcher.on('stable', (file) => {
        if (writing && file.name === 'slow.csv') sizesWhileWriting.push(file.size);
      });
      // The writer keeps the file open, like an export tool would, and adds a chunk every 700 ms for 7.7 s.
      const handle = await open(path, 'w');
      let total = 0;
      try {
        for (let chunk = 0; chunk < 11; chunk += 1) {
          const text = `line ${chunk},${'x'.repeat(40)}\n`;
          await handle.write(text);
          total += Buffer.byteLength(text);
          await new Promise((done) => setTimeout(done, 700));
        }
      } finally {
        await handle.close();
        writing = false;
      }
      await waitFor('slow.csv after its last write', () => countOf('slow.csv') > 0);
      expect(sizesWhileWriting).toEqual([]);
      expect(seen.stable.filter((f) => f.name === 'slow.csv').map((f) => f.size)).toEqual([total]);
    });
  });

  it('waits longer before it takes an empty file, and takes the rows written into it meanwhile', async () => {
    // An empty file waits EMPTY_FILE_WAIT_FACTOR (5) windows: the rows come after two, leaving three for a loaded machine.
    await withWatcher({ stabilityMs: 500 }, async ({ dir, seen, countOf, waitFor }) => {
      const path = join(dir, 'census-late.csv');
      // An exporter that creates the file, then writes its rows a while later (more than one stability window).
      const handle = await open(path, 'w');
      try {
        await new Promise((done) => setTimeout(done, 1000));
        expect(countOf('census-late.csv')).toBe(0);
        await handle.write('a,b\n1,2\n');
      } finally {
        await handle.close();
      }
      await waitFor('census-late.csv with its rows', () => countOf('census-late.csv') > 0);
      expect(seen.stable.filter((f) => f.name === 'census-late.csv').map((f) => f.size)).toEqual([8]);
      // One left empty is still taken (and refused as empty by the queue), after EMPTY_FILE_WAIT_FACTOR windows.
      await writeFile(join(dir, 'census-empty.csv'), '');
      await waitFor('census-empty.csv', () => countOf('census-empty.csv') > 0);
      expect(seen.stable.find((f) => f.name === 'census-empty.csv')).toMatchObject({ size: 0 });
    });
  });

  it('waits as long before it takes a file that holds only its header, and takes the rows written into it meanwhile', async () => {
    // As an empty file: the rows come after two windows of the five it waits.
    await withWatcher({ stabilityMs: 500 }, async ({ dir, seen, countOf, waitFor }) => {
      const path = join(dir, 'census-header-first.csv');
      // An exporter (SQL and BCP tools do this) that writes the header, runs its query (more than one stability
      // window), then writes the rows.
      const handle = await open(path, 'w');
      const header = 'lastName,firstName\r\n';
      const rows = 'Doe,Jane\r\nRoe,John\r\n';
      try {
        await handle.write(header);
        await new Promise((done) => setTimeout(done, 1000));
        expect(countOf('census-header-first.csv')).toBe(0);
        await handle.write(rows);
      } finally {
        await handle.close();
      }
      await waitFor('census-header-first.csv with its rows', () => countOf('census-header-first.csv') > 0);
      expect(seen.stable.filter((f) => f.name === 'census-header-first.csv').map((f) => f.size)).toEqual([header.length + rows.length]);
      // One left with its header alone is still taken (and refused by the queue), after EMPTY_FILE_WAIT_FACTOR windows.
      await writeFile(join(dir, 'census-header-only.csv'), header);
      await waitFor('census-header-only.csv', () => countOf('census-header-only.csv') > 0);
      expect(seen.stable.find((f) => f.name === 'census-header-only.csv')).toMatchObject({ size: header.length });
    });
  });

  it('never reports temporary, hidden or non-CSV files', async () => {
    await withWatcher({}, async ({ dir, seen, barrier, watcher }) => {
      const ignoredNames = ['~$census.csv', '.hidden.csv', 'census.csv.tmp', 'census.csv.part', 'notes.txt', 'census.xlsx'];
      await Promise.all(ignoredNames.map((name) => writeFile(join(dir, name), 'a,b\n')));
      await watcher.sweep();
      await barrier();
      expect(seen.stable.map((f) => f.name).filter((name) => !name.startsWith('barrier-'))).toEqual([]);
    });
  });

  it('never looks into subfolders such as uploaded/ and rejected/', async () => {
    await withWatcher({}, async ({ dir, seen, barrier, watcher }) => {
      for (const sub of ['uploaded/2024-05-01', 'rejected', 'duplicates', 'folder.csv']) await mkdir(join(dir, sub), { recursive: true });
      await writeFile(join(dir, 'uploaded/2024-05-01/census.csv'), 'a\n');
      await writeFile(join(dir, 'rejected/receipts.csv'), 'a\n');
      await writeFile(join(dir, 'duplicates/census.csv'), 'a\n');
      await writeFile(join(dir, 'folder.csv/inner.csv'), 'a\n');
      await watcher.sweep();
      await barrier();
      expect(seen.stable.map((f) => f.name).filter((name) => !name.startsWith('barrier-'))).toEqual([]);
    });
  });

  it('finds a file that was there before start through the initial sweep', async () => {
    const prepare = (dir: string) => writeFile(join(dir, 'waiting.csv'), 'a,b\n');
    await withWatcher({ prepare }, async ({ countOf, waitFor, barrier }) => {
      await waitFor('waiting.csv', () => countOf('waiting.csv') > 0);
      await barrier();
      expect(countOf('waiting.csv')).toBe(1);
    });
  });

  it('reports a file again when it changes after being reported (the queue dedups by path+size+mtime)', async () => {
    await withWatcher({}, async ({ dir, seen, countOf, waitFor }) => {
      const path = join(dir, 'grows.csv');
      await writeFile(path, 'a\n');
      await waitFor('first version', () => countOf('grows.csv') === 1);
      await appendFile(path, 'b\n');
      await waitFor('second version', () => countOf('grows.csv') === 2);
      expect(seen.stable.filter((f) => f.name === 'grows.csv').map((f) => f.size)).toEqual([2, 4]);
    });
  });

  it('finds with a sweep what file events did not report', async () => {
    // Polling once a minute: chokidar will not see the new file during this test, only the sweep can.
    await withWatcher({ usePolling: true, pollIntervalMs: 60_000 }, async ({ dir, countOf, waitFor, watcher }) => {
      await writeFile(join(dir, 'missed.csv'), 'a\n');
      await watcher.sweep();
      await waitFor('missed.csv via sweep', () => countOf('missed.csv') > 0);
    });
  });

  it('finds files in polling mode (network folders)', async () => {
    await withWatcher({ usePolling: true, pollIntervalMs: 100 }, async ({ dir, countOf, waitFor }) => {
      await writeFile(join(dir, 'share.csv'), 'a\n');
      await waitFor('share.csv via polling', () => countOf('share.csv') > 0);
    });
  });

  it('refuses symbolic links and pipes once, without following or opening them, and keeps going', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'payroll-outside-'));
    try {
      await writeFile(join(outside, 'secret.csv'), 'lastName\nDoe\n');
      await withWatcher({}, async ({ dir, seen, countOf, waitFor, watcher, barrier }) => {
        // A link to a file elsewhere on the disk, a link to itself (ELOOP when followed) and a named pipe (an open
        // for reading would block forever).
        await symlink(join(outside, 'secret.csv'), join(dir, 'census-link.csv'));
        await symlink('loop.csv', join(dir, 'loop.csv'));
        await promisify(execFile)('mkfifo', [join(dir, 'census-pipe.csv')]);
        await watcher.sweep();
        await waitFor('three refusals', () => seen.refused.length === 3);
        expect(seen.refused.map((r) => r.name).sort()).toEqual(['census-link.csv', 'census-pipe.csv', 'loop.csv']);
        expect(seen.refused.find((r) => r.name === 'census-link.csv')?.reason).toMatch(/symbolic link.*target was never read/);
        expect(seen.refused.find((r) => r.name === 'census-pipe.csv')?.reason).toMatch(/named pipe/);
        await writeFile(join(dir, 'fine.csv'), 'a\n');
        await waitFor('fine.csv', () => countOf('fine.csv') > 0);
        await watcher.sweep();
        await barrier();
        expect(seen.refused).toHaveLength(3);
        expect(countOf('census-link.csv') + countOf('loop.csv') + countOf('census-pipe.csv')).toBe(0);
        expect(seen.errors).toEqual([]);
      });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('mentions a file that is not a CSV export once', async () => {
    await withWatcher({}, async ({ dir, seen, waitFor, watcher, barrier }) => {
      await writeFile(join(dir, 'payroll.xlsx'), 'x');
      await writeFile(join(dir, '~$payroll.xlsx'), 'x');
      await watcher.sweep();
      await waitFor('payroll.xlsx ignored', () => seen.ignored.includes('payroll.xlsx'));
      await watcher.sweep();
      await barrier();
      expect(seen.ignored).toEqual(['payroll.xlsx']);
    });
  });

  it('keeps running when an event listener throws', async () => {
    await withWatcher({}, async ({ dir, watcher, countOf, waitFor }) => {
      watcher.on('stable', () => {
        throw new Error('listener bug');
      });
      await writeFile(join(dir, 'first.csv'), 'a\n');
      await waitFor('first.csv', () => countOf('first.csv') > 0);
      await writeFile(join(dir, 'second.csv'), 'a\n');
      await waitFor('second.csv', () => countOf('second.csv') > 0);
    });
  });
});

describe('createFolderWatcher: options and lifecycle', () => {
  it('refuses bad options with a message naming the option', () => {
    expect(() => createFolderWatcher({ folder: '' })).toThrow(/folder/);
    expect(() => createFolderWatcher({ folder: '/tmp/x', stabilityMs: -1 })).toThrow(/stabilityMs/);
    expect(() => createFolderWatcher({ folder: '/tmp/x', sweepIntervalMs: Number.NaN })).toThrow(/sweepIntervalMs/);
    expect(() => createFolderWatcher({ folder: '/tmp/x', busyRetries: 1.5 })).toThrow(/busyRetries/);
  });

  it('refuses a second start and a sweep before start', async () => {
    await withWatcher({ start: false }, async ({ watcher }) => {
      await expect(watcher.sweep()).rejects.toThrow(/not started/);
      await watcher.start();
      await expect(watcher.start()).rejects.toThrow(/already started/);
    });
  });

  it('reports nothing after stop', async () => {
    await withWatcher({ stabilityMs: 500 }, async ({ dir, watcher, seen }) => {
      await writeFile(join(dir, 'late.csv'), 'a\n');
      await watcher.stop();
      const countAtStop = seen.stable.length;
      await new Promise((done) => setTimeout(done, 800));
      expect(seen.stable.length).toBe(countAtStop);
      expect(watcher.isFolderPresent()).toBeUndefined();
    });
  });
});
