// Shared by the watcher's tests: a real temp folder, a real watcher, and a recorder of what it emitted.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../electron/lib/logger';
import { createFolderWatcher, type FolderWatcher, type FolderWatcherOptions, type StableFile } from '../../electron/core/watcher/folder-watcher';

export type Recorded = {
  stable: StableFile[];
  folder: boolean[];
  errors: Error[];
  refused: { name: string; reason: string }[];
  ignored: string[];
  /** Every event in order, for assertions about sequence. */
  sequence: string[];
};

export type WatcherKit = {
  dir: string;
  watcher: FolderWatcher;
  seen: Recorded;
  countOf: (name: string) => number;
  /** Polls until `predicate` holds; fails with `what` after a generous deadline (not a timing assertion). */
  waitFor: (what: string, predicate: () => boolean, deadlineMs?: number) => Promise<void>;
  /**
   * Drops a fresh file and waits for it. Any earlier check still pending when it was dropped has had at least a
   * full stability window to report, so counts taken afterwards are final.
   */
  barrier: () => Promise<void>;
};

const silent = createLogger('watcher-test', () => undefined);
let barrierCount = 0;

export async function waitFor(what: string, predicate: () => boolean, deadlineMs = 20_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

/** Runs `body` with a started watcher on a fresh temp folder; always stops the watcher and removes the folder. */
export async function withWatcher(
  options: Omit<FolderWatcherOptions, 'folder'> & { prepare?: (dir: string) => Promise<void>; start?: boolean },
  body: (kit: WatcherKit) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'payroll-watcher-'));
  const { prepare, start = true, ...watcherOptions } = options;
  const watcher = createFolderWatcher({ stabilityMs: 300, logger: silent, ...watcherOptions, folder: dir });
  const seen: Recorded = { stable: [], folder: [], errors: [], refused: [], ignored: [], sequence: [] };
  watcher.on('refused', (file) => {
    seen.refused.push({ name: file.name, reason: file.reason });
    seen.sequence.push(`refused:${file.name}`);
  });
  watcher.on('ignored', (file) => {
    seen.ignored.push(file.name);
    seen.sequence.push(`ignored:${file.name}`);
  });
  watcher.on('stable', (file) => {
    seen.stable.push(file);
    seen.sequence.push(`stable:${file.name}`);
  });
  watcher.on('folder', ({ present }) => {
    seen.folder.push(present);
    seen.sequence.push(`folder:${present}`);
  });
  watcher.on('error', (error) => {
    seen.errors.push(error);
    seen.sequence.push(`error:${error.message}`);
  });
  const countOf = (name: string): number => seen.stable.filter((file) => file.name === name).length;
  const kit: WatcherKit = {
    dir,
    watcher,
    seen,
    countOf,
    waitFor,
    barrier: async () => {
      barrierCount += 1;
      const name = `barrier-${barrierCount}.csv`;
      // Two lines: a file that holds only its first line waits several windows (an exporter may write the rows later).
      await writeFile(join(dir, name), 'barrier\nrow\n');
      await waitFor(`the barrier file ${name}`, () => countOf(name) > 0);
    },
  };
  try {
    if (prepare) await prepare(dir);
    if (start) await watcher.start();
    await body(kit);
  } finally {
    await watcher.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
