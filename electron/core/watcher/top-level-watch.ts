import { FSWatcher, type ChokidarOptions } from 'chokidar';
import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { isCandidateName } from './candidate-name';
import { mayBeUnreadableName } from './unreadable-name';
import { classifyFsError } from '../../lib/fs-errors';

export type TopLevelWatchOptions = { usePolling: boolean; pollIntervalMs: number; readyTimeoutMs: number };

/** What chokidar saw; no handler is called after `close()`. */
export type TopLevelWatchHandlers = {
  /** A top-level candidate file was added or changed (absolute path). */
  onCandidate: (path: string) => void;
  onRemoved: (path: string) => void;
  /**
   * A top-level name that is not UTF-8 came or went: chokidar reads names as text, finds no file under that text and
   * reports nothing, so only a listing by bytes can tell what it is.
   */
  onUnreadableName: () => void;
  /** The watched folder itself was deleted; the watch is dead even if the folder is recreated at once. */
  onFolderDeleted: () => void;
  onError: (error: unknown) => void;
};

export type TopLevelWatch = {
  /** Resolves once chokidar is ready, after `readyTimeoutMs` at the latest, or at close. */
  ready: Promise<void>;
  close: () => Promise<void>;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * A chokidar watcher that stays closed. chokidar 4 (5 too) can watch again after close(): a watched file whose
 * removal it confirms after close() (its stat was under way) makes it call add() on the folder, which reopens the
 * instance and leaves an fs.watch handle that nothing closes. That handle kept `watch --once` running after its work
 * was done, under load about one run in ten.
 *
 * A close() during the first scan leaks one too (chokidar issue #1482): the folder's fs.watch is opened once its
 * listing is read, and a close() landing before chokidar has filed that handle's closer finds nothing to close, so
 * the handle is dropped open. Changing the watched folder while the old one is still being listed did that. So
 * close() lets the first scan finish before closing: chokidar files every closer before it reports ready.
 */
export class StayClosedWatcher extends FSWatcher {
  #closed = false;
  #firstScan: Promise<void> | undefined;
  readonly #scanTimeoutMs: number;

  /** `scanTimeoutMs`: how long after the first add() to wait for chokidar's ready at most. */
  constructor(options: ChokidarOptions, scanTimeoutMs: number) {
    super(options);
    this.#scanTimeoutMs = scanTimeoutMs;
  }

  /**
   * Resolves once chokidar's first scan is done (its ready event), or `scanTimeoutMs` after the first add() at the
   * latest: a folder that vanishes while chokidar starts may never report ready.
   */
  get firstScan(): Promise<void> {
    return this.#firstScan ?? Promise.resolve();
  }

  override add(...args: Parameters<FSWatcher['add']>): FSWatcher {
    if (this.#closed) return this;
    this.#firstScan ??= new Promise<void>((done) => {
      const timer = setTimeout(done, this.#scanTimeoutMs);
      timer.unref();
      this.once('ready', () => {
        clearTimeout(timer);
        done();
      });
    });
    return super.add(...args);
  }

  override async close(): Promise<void> {
    this.#closed = true;
    await this.firstScan;
    return super.close();
  }
}

/**
 * The watched folder: `path` as the user gave it, `real` where it leads once its symbolic links are resolved. The
 * path may be a link (to a network share, say); chokidar is given `real` because it does not follow links, not even
 * the folder it was asked to watch.
 */
export type WatchedFolder = { path: string; real: string };

/**
 * chokidar on one folder, depth 0: only candidate files at its top level, never subfolders. Files are reported
 * under `folder.path`, as the sweep lists them, so both name a file the same way.
 */
export function watchTopLevel(folder: WatchedFolder, options: TopLevelWatchOptions, handlers: TopLevelWatchHandlers): TopLevelWatch {
  const root = resolve(folder.real);
  const reported = resolve(folder.path);
  let open = true;
  const isTopLevelCandidate = (path: string): boolean => dirname(resolve(path)) === root && isCandidateName(basename(path));
  const asReported = (path: string): string => join(reported, basename(path));
  const chokidarOptions: ChokidarOptions = {
    depth: 0,
    ignoreInitial: true,
    // A link in the folder is reported as the link (and refused): its target is never watched or read.
    followSymlinks: false,
    usePolling: options.usePolling,
    interval: options.pollIntervalMs,
    binaryInterval: options.pollIntervalMs,
    ignored: (path, stats) => {
      const full = resolve(path);
      if (full === root || root.startsWith(full + sep)) return false;
      if (stats?.isDirectory()) return true;
      return !isTopLevelCandidate(full);
    },
  };
  const instance = new StayClosedWatcher(chokidarOptions, options.readyTimeoutMs);
  const candidate = (path: string): void => {
    if (open && isTopLevelCandidate(path)) handlers.onCandidate(asReported(path));
  };
  instance.on('add', candidate);
  instance.on('change', candidate);
  instance.on('unlink', (path) => {
    if (open && dirname(resolve(path)) === root) handlers.onRemoved(asReported(path));
  });
  instance.on('unlinkDir', (path) => {
    if (open && resolve(path) === root) handlers.onFolderDeleted();
  });
  // A folder deleted and recreated at once keeps its inode number on Linux and chokidar reports no unlinkDir;
  // the only trace is a raw rename of the folder's own name. A name that is not UTF-8 leaves only a raw rename too.
  instance.on('raw', (event, name, details) => {
    if (!open || event !== 'rename' || !isRecord(details) || details.watchedPath !== root) return;
    if (name !== basename(root)) {
      if (typeof name === 'string' && mayBeUnreadableName(name)) handlers.onUnreadableName();
      return;
    }
    // A file inside the folder that shares the folder's name raises the same event: tell them apart.
    void stat(join(root, name)).then(
      () => undefined,
      (error: unknown) => {
        if (open && classifyFsError(error) === 'gone') handlers.onFolderDeleted();
      },
    );
  });
  instance.on('error', (error) => {
    if (open) handlers.onError(error);
  });

  instance.add(root);

  let release: () => void = () => undefined;
  // The sweep covers a first scan that never reports ready.
  const ready = new Promise<void>((done) => {
    release = done;
    void instance.firstScan.then(done);
  });

  return {
    ready,
    close: async () => {
      open = false;
      release();
      await instance.close();
    },
  };
}
