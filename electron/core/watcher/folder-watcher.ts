import { watch, type FSWatcher } from 'chokidar';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { createLogger, type Logger } from '../../lib/logger';
import { isCandidateName } from './candidate-name';
import { classifyFsError, describeError } from './fs-errors';
import { createStabilityTracker, type StabilityTracker, type StableFile } from './stability-tracker';
import { createTypedEmitter, type TypedEmitter } from './typed-emitter';
import { resolveWatcherOptions, type FolderWatcherOptions } from './watcher-options';

export type { StableFile } from './stability-tracker';
export type { FolderWatcherOptions } from './watcher-options';

/**
 * Events of a folder watcher.
 * - `stable`: a candidate finished writing. Emitted once per version (path + size + mtime); a file that changes
 *   after being reported is reported again, so the consumer (the durable queue) must dedup by path+size+mtime.
 * - `error`: something the user may need to know (a file stayed locked, the folder cannot be listed); the
 *   watcher keeps running.
 * - `folder`: the watched folder disappeared (`present: false`) or came back (`present: true`).
 */
export type FolderWatcherEvents = {
  stable: StableFile;
  error: Error;
  folder: { present: boolean };
};

/** Watches one folder's top level for CSV files that have finished being written. Never throws into callers' events. */
export type FolderWatcher = {
  readonly folder: string;
  /** Starts watching; resolves after the initial sweep has listed the folder. A missing folder is waited for. */
  start: () => Promise<void>;
  /** Clears every timer, closes chokidar and waits for in-flight checks; no event is emitted afterwards. */
  stop: () => Promise<void>;
  /** Lists the folder now and feeds every candidate to the stability check. */
  sweep: () => Promise<void>;
  /** Whether the folder was there at the last check (undefined before start). */
  isFolderPresent: () => boolean | undefined;
  on: TypedEmitter<FolderWatcherEvents>['on'];
  off: TypedEmitter<FolderWatcherEvents>['off'];
};

const READY_TIMEOUT_MS = 10_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function createFolderWatcher(options: FolderWatcherOptions): FolderWatcher {
  const settings = resolveWatcherOptions(options);
  const root = resolve(settings.folder);
  const logger: Logger = options.logger ?? createLogger('watcher');
  const emitter = createTypedEmitter<FolderWatcherEvents>((error) => {
    logger.error(`A watcher event listener threw: ${describeError(error)}`);
  });

  let running = false;
  let present: boolean | undefined;
  let identity: string | undefined;
  let chokidar: FSWatcher | undefined;
  let tracker: StabilityTracker | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let folderTimer: NodeJS.Timeout | undefined;
  let sweepRunning: Promise<void> | undefined;
  let sweepQueued: Promise<void> | undefined;
  let folderCheck: Promise<void> | undefined;
  // Why the next folder check must restart chokidar even if the folder looks the same: 'replaced' when chokidar saw
  // the folder itself deleted (Linux reuses the inode number of a folder recreated at once, yet the old watch is
  // dead), 'restart' after a chokidar error.
  let rearm: 'none' | 'restart' | 'replaced' = 'none';
  const background = new Set<Promise<void>>();

  const reportError = (error: Error): void => {
    if (!running) return;
    logger.warn(error.message);
    emitter.emit('error', error);
  };

  /** Runs work nobody awaits, keeps it visible to stop(), and turns any failure into an `error` event. */
  const inBackground = (work: Promise<void>): void => {
    const guarded = work.catch((error: unknown) => reportError(new Error(`Watcher: ${describeError(error)}`, { cause: error })));
    background.add(guarded);
    void guarded.finally(() => background.delete(guarded));
  };

  const isTopLevelCandidate = (path: string): boolean => dirname(resolve(path)) === root && isCandidateName(basename(path));

  const ignored = (path: string, stats?: { isDirectory(): boolean }): boolean => {
    const full = resolve(path);
    if (full === root || root.startsWith(full + sep)) return false;
    if (stats?.isDirectory()) return true;
    return !isTopLevelCandidate(full);
  };

  const closeChokidar = async (): Promise<void> => {
    const current = chokidar;
    chokidar = undefined;
    if (current) await current.close();
  };

  const openChokidar = async (): Promise<void> => {
    await closeChokidar();
    const instance = watch(root, {
      depth: 0,
      ignoreInitial: true,
      usePolling: settings.usePolling,
      interval: settings.pollIntervalMs,
      binaryInterval: settings.pollIntervalMs,
      ignored,
    });
    chokidar = instance;
    const consider = (path: string): void => {
      if (chokidar === instance && isTopLevelCandidate(path)) tracker?.consider(resolve(path));
    };
    instance.on('add', consider);
    instance.on('change', consider);
    instance.on('unlink', (path) => tracker?.forget(resolve(path)));
    instance.on('unlinkDir', (path) => {
      if (chokidar !== instance || resolve(path) !== root) return;
      rearm = 'replaced';
      inBackground(checkFolder());
    });
    instance.on('raw', (event, name, details) => {
      if (chokidar !== instance || event !== 'rename' || name !== basename(root)) return;
      if (!isRecord(details) || details.watchedPath !== root) return;
      // The same event names a file inside the folder that happens to share the folder's name: tell them apart.
      inBackground(stat(join(root, name)).then(() => undefined, (error: unknown) => {
        if (chokidar !== instance || classifyFsError(error) !== 'gone') return;
        rearm = 'replaced';
        return checkFolder();
      }));
    });
    instance.on('error', (error) => {
      if (chokidar !== instance) return;
      logger.warn(`chokidar reported: ${describeError(error)}`);
      if (rearm === 'none') rearm = 'restart';
      inBackground(checkFolder().then(() => {
        if (present) reportError(new Error(`Watching "${root}" failed (${describeError(error)}); the periodic sweep still finds new files.`, { cause: error }));
      }));
    });
    let readyTimer: NodeJS.Timeout | undefined;
    // A folder that vanishes while chokidar starts may never report ready; the sweep covers that window.
    await new Promise<void>((done) => {
      readyTimer = setTimeout(done, READY_TIMEOUT_MS);
      instance.once('ready', () => done());
    });
    clearTimeout(readyTimer);
  };

  const becomeAbsent = async (why: string): Promise<void> => {
    const wasPresent = present;
    present = false;
    identity = undefined;
    rearm = 'none';
    tracker?.cancelAll();
    await closeChokidar();
    if (wasPresent !== false && running) {
      logger.warn(`Watched folder "${root}" is not available (${why}); waiting for it to come back`);
      emitter.emit('folder', { present: false });
    }
  };

  const becomePresent = async (id: string): Promise<void> => {
    const returning = present === false;
    present = true;
    identity = id;
    await openChokidar();
    if (!running) return closeChokidar();
    if (returning) {
      logger.info(`Watched folder "${root}" is available again`);
      emitter.emit('folder', { present: true });
      inBackground(sweep());
    }
  };

  const doCheckFolder = async (): Promise<void> => {
    let info;
    try {
      info = await stat(root);
    } catch (error) {
      if (running) await becomeAbsent(classifyFsError(error) === 'gone' ? 'it does not exist' : describeError(error));
      return;
    }
    if (!running) return;
    if (!info.isDirectory()) return becomeAbsent('it is not a folder');
    const id = `${info.dev}:${info.ino}`;
    if (present === true && id === identity && rearm === 'none') return;
    const replaced = present === true && (id !== identity || rearm === 'replaced');
    const restart = present === true && !replaced;
    rearm = 'none';
    // Removed and recreated between two checks: the old chokidar handle watches a dead folder.
    if (replaced) await becomeAbsent('it was removed and created again');
    if (restart) logger.info(`Restarting the watch of "${root}"`);
    if (running) await becomePresent(id);
    if (restart && running) inBackground(sweep());
  };

  const checkFolder = (): Promise<void> => {
    folderCheck ??= doCheckFolder().finally(() => {
      folderCheck = undefined;
    });
    return folderCheck;
  };

  const doSweep = async (): Promise<void> => {
    if (!running) return;
    if (present !== true) return checkFolder();
    let entries;
    try {
      entries = await readdir(root, { withFileTypes: true });
    } catch (error) {
      if (classifyFsError(error) === 'gone') inBackground(checkFolder());
      else reportError(new Error(`Cannot list "${root}": ${describeError(error)}`, { cause: error }));
      return;
    }
    if (!running || !tracker) return;
    const seen = new Set<string>();
    for (const entry of entries) {
      if (!(entry.isFile() || entry.isSymbolicLink()) || !isCandidateName(entry.name)) continue;
      const path = join(root, entry.name);
      seen.add(path);
      tracker.consider(path);
    }
    tracker.retainOnly(seen);
  };

  // One listing at a time; a sweep asked for during a listing runs once more afterwards so nothing is missed.
  const sweep = (): Promise<void> => {
    if (!sweepRunning) {
      sweepRunning = doSweep().finally(() => {
        sweepRunning = undefined;
      });
      return sweepRunning;
    }
    sweepQueued ??= sweepRunning.then(() => {
      sweepQueued = undefined;
      return sweep();
    });
    return sweepQueued;
  };

  return {
    folder: root,
    start: async () => {
      if (running) throw new Error(`The watcher for "${root}" is already started`);
      running = true;
      tracker = createStabilityTracker({
        stabilityMs: settings.stabilityMs,
        checkIntervalMs: settings.checkIntervalMs,
        busyRetries: settings.busyRetries,
        busyBaseDelayMs: settings.busyBaseDelayMs,
        onStable: (file) => {
          if (!running) return;
          logger.info(`${file.name} is ready (${file.size} bytes)`);
          emitter.emit('stable', file);
        },
        onError: reportError,
        logger,
      });
      sweepTimer = setInterval(() => inBackground(sweep()), settings.sweepIntervalMs);
      folderTimer = setInterval(() => inBackground(checkFolder()), settings.folderCheckIntervalMs);
      await checkFolder();
      if (present) await sweep();
    },
    stop: async () => {
      if (!running) return;
      running = false;
      clearInterval(sweepTimer);
      clearInterval(folderTimer);
      sweepTimer = undefined;
      folderTimer = undefined;
      await Promise.allSettled([folderCheck, sweepRunning, sweepQueued, ...background]);
      await closeChokidar();
      await tracker?.stop();
      tracker = undefined;
      present = undefined;
      identity = undefined;
    },
    sweep: () => {
      if (!running) return Promise.reject(new Error(`The watcher for "${root}" is not started`));
      return sweep();
    },
    isFolderPresent: () => present,
    on: (event, listener) => emitter.on(event, listener),
    off: (event, listener) => emitter.off(event, listener),
  };
}
