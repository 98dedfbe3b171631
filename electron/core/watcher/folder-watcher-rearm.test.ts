import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { createFolderWatcher } from './folder-watcher';
import { waitFor, withWatcher } from '../../../test/helpers/watcher-kit';

const silent = createLogger('watcher-test', () => undefined);

describe('createFolderWatcher: the folder going away', () => {
  it.each([
    ['native events', false],
    ['polling', true],
  ])('re-arms when the folder is removed and created again (%s)', async (_mode, usePolling) => {
    await withWatcher({ usePolling, pollIntervalMs: 100, folderCheckIntervalMs: 200 }, async ({ dir, seen, countOf }) => {
      await writeFile(join(dir, 'before.csv'), 'a\n');
      await waitFor('before.csv', () => countOf('before.csv') > 0);
      await rm(dir, { recursive: true });
      await waitFor('folder gone', () => seen.folder.includes(false));
      await mkdir(dir);
      await waitFor('folder back', () => seen.folder.includes(true));
      await writeFile(join(dir, 'after.csv'), 'a\n');
      await waitFor('after.csv', () => countOf('after.csv') > 0);
      expect(seen.folder).toEqual([false, true]);
      expect(seen.sequence.indexOf('folder:true')).toBeLessThan(seen.sequence.indexOf('stable:after.csv'));
    });
  });

  it('re-arms when the folder is removed and created again at once', async () => {
    await withWatcher({ folderCheckIntervalMs: 200 }, async ({ dir, seen, countOf }) => {
      await rm(dir, { recursive: true });
      await mkdir(dir);
      await waitFor('folder replaced', () => seen.folder.includes(true));
      expect(seen.folder).toEqual([false, true]);
      await writeFile(join(dir, 'after.csv'), 'a\n');
      await waitFor('after.csv', () => countOf('after.csv') > 0);
    });
  });

  it('says so when the watched path is a file, and re-arms once it is a folder', async () => {
    await withWatcher({ folderCheckIntervalMs: 200 }, async ({ dir, seen, countOf }) => {
      await rm(dir, { recursive: true });
      await writeFile(dir, 'not a folder');
      await waitFor('folder gone', () => seen.folder.includes(false));
      await waitFor('an error about the file', () => seen.errors.some((e) => /is a file, not a folder/.test(e.message)));
      await rm(dir);
      await mkdir(dir);
      await waitFor('folder back', () => seen.folder.includes(true));
      await writeFile(join(dir, 'after.csv'), 'a\n');
      await waitFor('after.csv', () => countOf('after.csv') > 0);
      expect(seen.folder).toEqual([false, true]);
    });
  });

  it('waits for a folder that does not exist yet', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'payroll-watcher-'));
    const folder = join(parent, 'exports');
    const watcher = createFolderWatcher({ folder, stabilityMs: 300, folderCheckIntervalMs: 200, logger: silent });
    const folderEvents: boolean[] = [];
    const names: string[] = [];
    watcher.on('folder', ({ present }) => folderEvents.push(present));
    watcher.on('stable', (file) => names.push(file.name));
    try {
      await watcher.start();
      expect(watcher.isFolderPresent()).toBe(false);
      expect(folderEvents).toEqual([false]);
      await mkdir(folder);
      await waitFor('folder present', () => folderEvents.includes(true));
      await writeFile(join(folder, 'census.csv'), 'a\n');
      await waitFor('census.csv', () => names.includes('census.csv'));
    } finally {
      await watcher.stop();
      await rm(parent, { recursive: true, force: true });
    }
  });
});

describe('createFolderWatcher: stop', () => {
  it('leaves no timer or handle behind: a process that stops its watcher exits by itself', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'payroll-watcher-exit-'));
    const watcherModule = fileURLToPath(new URL('./folder-watcher.ts', import.meta.url));
    const script = join(dir, 'run-watcher.mts');
    const folder = join(dir, 'watched');
    await mkdir(folder);
    await writeFile(script, [
      `import { writeFile } from 'node:fs/promises';`,
      `import { createFolderWatcher } from ${JSON.stringify(watcherModule)};`,
      `const folder = ${JSON.stringify(folder)};`,
      `const watcher = createFolderWatcher({ folder, stabilityMs: 100, sweepIntervalMs: 200, folderCheckIntervalMs: 100 });`,
      `const taken = new Promise((done) => watcher.on('stable', (file) => done(file.name)));`,
      `await watcher.start();`,
      `await writeFile(folder + '/census.csv', 'a\\n');`,
      `await writeFile(folder + '/pending.csv', 'a\\n');`,
      `process.stdout.write('taken ' + String(await taken) + '\\n');`,
      `await watcher.stop();`,
      `process.stdout.write('stopped\\n');`,
    ].join('\n'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        cwd: fileURLToPath(new URL('../../..', import.meta.url)),
        env: { ...process.env, PAYROLL_LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      let exitCode: number | null | undefined;
      child.on('exit', (code) => (exitCode = code));
      try {
        await waitFor('the child process to exit on its own after stop()', () => exitCode !== undefined, 30_000);
      } finally {
        if (exitCode === undefined) child.kill();
      }
      expect(output).toMatch(/taken (census|pending)\.csv\nstopped\n/);
      expect(exitCode).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
