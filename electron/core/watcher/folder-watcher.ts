import { realpath } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createLogger, type Logger } from '../../lib/logger';
import { LastingError } from '../notices/lasting-error';
import { isCandidateName } from './candidate-name';
import { listingDenied } from './folder-listing';
import { classifyFsError, describeError, errorPath, isDenied } from '../../lib/fs-errors';
import { printableName, printableText } from '../../lib/printable-name';
import { createStabilityTracker, type StabilityTracker } from './stability-tracker';
import type { StableFile } from './stable-file';
import { watchTopLevel, type TopLevelWatch } from './top-level-watch';
import { createTypedEmitter, type TypedEmitter } from '../../lib/typed-emitter';
import { UnreadableFolderError } from './unreadable-folder-error';
import { isUnreadableName, unreadableNameError } from './unreadable-name';
import { resolveWatcherOptions, type FolderWatcherOptions } from './watcher-options';

export type { StableFile } from './stable-file';

/** Files worth mentioning as "not a .csv export": not hidden, not temporary, not an Office lock file. */
function isReportableOther(name: string): boolean {
  const lower = name.toLowerCase();
  return !name.startsWith('.') && !name.startsWith('~$') && !lower.endsWith('.tmp') && !lower.endsWith('.part')
    && !lower.endsWith('.error.txt') && !lower.endsWith('.warnings.txt');
}
export type { FolderWatcherOptions } from './watcher-options';

/**
 * Events of a folder watcher.
 * - `stable`: a candidate finished writing. Emitted once per version (path + size + mtime); a file that changes
 *   after being reported is reported again, so the consumer (the durable queue) must dedup by path+size+mtime.
 * - `error`: something the user may need to know (a file stayed locked, the folder is a file); the watcher keeps
 *   running. A folder this user may not list is an UnreadableFolderError, said before the `folder` event it causes.
 * - `folder`: the watched folder disappeared or cannot be listed (`present: false`, with `unreadable` when it is there
 *   but this user may not list it), or came back (`present: true`). An absent folder that becomes unreadable, or stops
 *   being unreadable (it was removed meanwhile), is said again.
 */
export type FolderWatcherEvents = {
  stable: StableFile;
  /** A candidate name that is not a regular file (a symbolic link, a pipe): reported once, never read. */
  refused: { path: string; name: string; reason: string };
  /** A file in the folder that is not a CSV export (e.g. payroll.xlsx): reported once per name while it stays. */
  ignored: { path: string; name: string };
  error: Error;
  folder: { present: boolean; unreadable?: boolean };
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
  /** Offers this file's current version again at the next sweep (the queue could not journal it). */
  offerAgain: (path: string) => void;
  /** Whether the folder was there at the last check (undefined before start). */
  isFolderPresent: () => boolean | undefined;
  on: TypedEmitter<FolderWatcherEvents>['on'];
  off: TypedEmitter<FolderWatcherEvents>['off'];
};

const READY_TIMEOUT_MS = 10_000;
/** Why the folder is not watched while this user may not list it. */
const UNREADABLE = 'this user may not read it';

// Node's own walk through the path (lstat and readlink of each part), not the system call fs/promises uses: that one
// fails on some Windows drives (RAM disks, some network shares) and turns a mapped drive letter into its UNC path.
const resolveLinks = promisify(realpath);

export function createFolderWatcher(options: FolderWatcherOptions): FolderWatcher {
  const settings = resolveWatcherOptions(options);
  const root = resolve(settings.folder);
  // The folder as the log and messages say it: a line break or a mark that reorders text in its path is escaped.
  const shownRoot = printableText(root);
  const logger: Logger = options.logger ?? createLogger('watcher');
  const emitter = createTypedEmitter<FolderWatcherEvents>((error) => {
    logger.error(`A watcher event listener threw: ${describeError(error)}`);
  });

  let running = false;
  let present: boolean | undefined;
  let identity: string | undefined;
  // Where `root` led when chokidar was started: the folder itself, or the folder its symbolic link points to.
  let watched: string | undefined;
  let chokidar: TopLevelWatch | undefined;
  let tracker: StabilityTracker | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let folderTimer: NodeJS.Timeout | undefined;
  let sweepRunning: Promise<void> | undefined;
  let sweepQueued: Promise<void> | undefined;
  let folderCheck: Promise<void> | undefined;
  // Why the next folder check must restart chokidar even if the folder looks the same: 'replaced' when chokidar saw
  // the folder itself deleted, 'restart' after a chokidar error (acted on at the next periodic check, so a failing
  // watch is not restarted in a tight loop).
  let rearm: 'none' | 'restart' | 'replaced' = 'none';
  let lastWatchError: string | undefined;
  let absentWhy: string | undefined;
  // The folder's listing was found denied (by a sweep, or after a watch error): the next folder check takes that as its
  // answer rather than look again.
  let knownDenied: unknown;
  // A listing that keeps failing the same way is said once, until a listing works again.
  let lastListError: string | undefined;
  let stopping: Promise<void> | undefined;
  const background = new Set<Promise<void>>();
  // Names of non-CSV files already mentioned: each is said once while it stays in the folder.
  const ignoredNames = new Set<string>();
  // Candidates whose name cannot be read as text (by their bytes, as latin1 text: two such names may read alike),
  // already said: each is said once while it stays in the folder.
  const unreadableNames = new Set<string>();

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

  const closeChokidar = async (): Promise<void> => {
    const current = chokidar;
    chokidar = undefined;
    if (current) await current.close();
  };

  const onWatchError = (error: unknown): void => {
    const message = describeError(error);
    const path = errorPath(error);
    if (path !== undefined && resolve(path) !== root && resolve(path) !== watched) {
      // One file chokidar could not stat (a symlink loop, a locked file): the stability check reports it on its own
      // terms, and restarting the watch would not help.
      logger.debug(`chokidar could not watch ${printableText(path)}: ${message}`);
      return;
    }
    logger.warn(`chokidar reported: ${message}`);
    inBackground(checkFolder().then(async () => {
      if (!present) return;
      if (rearm === 'none') rearm = 'restart';
      // A folder this user may no longer list: the next periodic check says so once, in words a clerk can act on.
      if (isDenied(error) && watched !== undefined) {
        knownDenied ??= await listingDenied(watched);
        if (knownDenied !== undefined) return;
      }
      // A watch that keeps failing the same way (inotify limit, EMFILE) is reported once, not every second.
      if (message === lastWatchError) return;
      lastWatchError = message;
      reportError(new Error(`Watching "${shownRoot}" failed (${message}); the periodic sweep still finds new files.`, { cause: error }));
    }));
  };

  const openChokidar = async (real: string): Promise<void> => {
    await closeChokidar();
    if (!running) return;
    watched = real;
    const opened = watchTopLevel(
      { path: root, real },
      { usePolling: settings.usePolling, pollIntervalMs: settings.pollIntervalMs, readyTimeoutMs: READY_TIMEOUT_MS },
      {
        onCandidate: (path) => tracker?.consider(path),
        onRemoved: (path) => tracker?.forget(path),
        // chokidar drops such a name unreported (it cannot stat it by its text): the listing finds it and says it.
        onUnreadableName: () => inBackground(sweep()),
        onFolderDeleted: () => {
          rearm = 'replaced';
          inBackground(checkFolder());
        },
        onError: onWatchError,
      },
    );
    chokidar = opened;
    await opened.ready;
  };

  /**
   * `problem` (a path that is there but unusable) is also reported as an `error`, once per distinct reason, and before
   * the `folder` event: the state that event leads to is then told with its reason.
   */
  const becomeAbsent = async (why: string, problem?: Error): Promise<void> => {
    const wasPresent = present;
    const sameReason = why === absentWhy;
    const unreadable = why === UNREADABLE;
    // Not listed, or not there: the clerk's remedy differs (access to ask for, a drive to connect), so a change is news.
    const newKind = wasPresent !== false || unreadable !== (absentWhy === UNREADABLE);
    absentWhy = why;
    present = false;
    identity = undefined;
    watched = undefined;
    rearm = 'none';
    lastWatchError = undefined;
    tracker?.cancelAll();
    await closeChokidar();
    const told = problem !== undefined && !sameReason && running;
    if (told) reportError(problem);
    else if (sameReason && wasPresent === false) logger.debug(`Watched folder "${shownRoot}" is still not available (${why})`);
    if (newKind && running) {
      // The problem's own words already say it.
      if (!told) logger.warn(`Watched folder "${shownRoot}" is not available (${why}); waiting for it to come back`);
      emitter.emit('folder', { present: false, unreadable });
    }
  };

  /**
   * A folder this user may not list (or reach): nothing in it can be found, so it is not watched, and a watch restarted
   * every second would fail the same way. The periodic folder check looks again, quietly, and watches it once it can
   * be listed.
   */
  const becomeUnreadable = (error: unknown): Promise<void> =>
    becomeAbsent(UNREADABLE, new UnreadableFolderError(root, { cause: error }));

  const becomePresent = async (id: string, real: string): Promise<void> => {
    const returning = present === false;
    present = true;
    identity = id;
    const wasUnreadable = absentWhy === UNREADABLE;
    absentWhy = undefined;
    await openChokidar(real);
    if (!running) return closeChokidar();
    if (returning) {
      logger.info(wasUnreadable ? `The watched folder "${shownRoot}" can be read again; watching it` : `Watched folder "${shownRoot}" is available again`);
      emitter.emit('folder', { present: true });
      inBackground(sweep());
    }
  };

  const doCheckFolder = async (periodic: boolean): Promise<void> => {
    let real;
    let info;
    try {
      // The folder's path may be a symbolic link (to a network share, say), or become one: it is watched where it
      // leads, and a link that now leads elsewhere is another folder. Links inside the folder are never followed.
      real = await resolveLinks(root);
      info = await stat(real);
    } catch (error) {
      if (!running) return;
      if (classifyFsError(error) === 'gone') return becomeAbsent('it does not exist');
      if (isDenied(error)) return becomeUnreadable(error);
      const why = describeError(error);
      return becomeAbsent(why, new LastingError(`Cannot reach the watched folder "${shownRoot}": ${why}`, 'watching', { cause: error }));
    }
    if (!running) return;
    if (!info.isDirectory()) {
      // Lasting: its notice goes once a folder is watched (this one made a folder, or another chosen), not left
      // above a Queue that watches a folder that is there.
      return becomeAbsent('it is not a folder', new LastingError(`The watched folder "${shownRoot}" is a file, not a folder`, 'watching'));
    }
    const id = `${info.dev}:${info.ino}:${real}`;
    // A folder check started by an event acts on 'replaced' at once; a 'restart' waits for the periodic check.
    if (present === true && id === identity && (rearm === 'none' || (rearm === 'restart' && !periodic))) return;
    // Before (re)opening the watch: a folder this user may not list is waited for, not watched.
    const denied = knownDenied ?? await listingDenied(real);
    knownDenied = undefined;
    if (!running) return;
    if (denied !== undefined) return becomeUnreadable(denied);
    const replaced = present === true && (id !== identity || rearm === 'replaced');
    const restart = present === true && !replaced;
    rearm = 'none';
    // Removed and recreated between two checks: the old chokidar handle watches a dead folder.
    if (replaced) await becomeAbsent('it was removed and created again');
    if (restart) logger.info(`Restarting the watch of "${shownRoot}"`);
    if (running) await becomePresent(id, real);
    if (restart && running) inBackground(sweep());
  };

  const checkFolder = (periodic = false): Promise<void> => {
    folderCheck ??= doCheckFolder(periodic).finally(() => {
      folderCheck = undefined;
    });
    return folderCheck;
  };

  const doSweep = async (): Promise<void> => {
    if (!running) return;
    if (present !== true) return checkFolder();
    let entries;
    try {
      // Names as the folder holds them: one that is not UTF-8 read as text names no file (see unreadable-name.ts).
      entries = await readdir(root, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      if (classifyFsError(error) === 'gone') inBackground(checkFolder());
      else if (isDenied(error)) {
        // Its permissions changed under the watch: the next periodic check says so once and waits for it.
        knownDenied = error;
        if (rearm === 'none') rearm = 'restart';
      } else if (describeError(error) !== lastListError) {
        lastListError = describeError(error);
        reportError(new Error(`Cannot list "${shownRoot}": ${lastListError}`, { cause: error }));
      }
      return;
    }
    lastListError = undefined;
    if (!running || !tracker) return;
    const seen = new Set<string>();
    const others = new Set<string>();
    const unreadable = new Map<string, string>();
    for (const entry of entries) {
      if (entry.isDirectory()) continue;
      const name = entry.name.toString('utf8');
      if (!isCandidateName(name)) {
        if (isReportableOther(name)) others.add(name);
        continue;
      }
      // Never handed to the stability check: its lstat by this text would find nothing and take the file as deleted.
      if (isUnreadableName(entry.name)) {
        unreadable.set(entry.name.toString('latin1'), name);
        continue;
      }
      const path = join(root, name);
      seen.add(path);
      tracker.consider(path);
    }
    tracker.retainOnly(seen);
    for (const name of others) {
      if (!ignoredNames.has(name)) emitter.emit('ignored', { path: join(root, name), name });
    }
    ignoredNames.clear();
    for (const name of others) ignoredNames.add(name);
    for (const [bytes, name] of unreadable) {
      if (!unreadableNames.has(bytes)) reportError(unreadableNameError(root, name));
    }
    unreadableNames.clear();
    for (const bytes of unreadable.keys()) unreadableNames.add(bytes);
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
      if (stopping) await stopping;
      if (running) throw new Error(`The watcher for "${shownRoot}" is already started`);
      running = true;
      tracker = createStabilityTracker({
        stabilityMs: settings.stabilityMs,
        checkIntervalMs: settings.checkIntervalMs,
        busyRetries: settings.busyRetries,
        busyBaseDelayMs: settings.busyBaseDelayMs,
        onStable: (file) => {
          if (!running) return;
          logger.info(`${printableName(file.name)} is ready (${file.size} bytes)`);
          emitter.emit('stable', file);
        },
        onRefused: (file) => {
          if (!running) return;
          logger.warn(`${printableName(file.name)} is refused: ${file.reason}`);
          emitter.emit('refused', file);
        },
        onError: reportError,
        logger,
      });
      sweepTimer = setInterval(() => inBackground(sweep()), settings.sweepIntervalMs);
      folderTimer = setInterval(() => inBackground(checkFolder(true)), settings.folderCheckIntervalMs);
      await checkFolder();
      if (present) await sweep();
    },
    stop: () => {
      if (!running) return stopping ?? Promise.resolve();
      running = false;
      clearInterval(sweepTimer);
      clearInterval(folderTimer);
      sweepTimer = undefined;
      folderTimer = undefined;
      // Closing first releases a chokidar start still waiting for ready, so stop never waits on it.
      const closing = closeChokidar();
      stopping = (async () => {
        await Promise.allSettled([closing, folderCheck, sweepRunning, sweepQueued, ...background]);
        await closeChokidar();
        await tracker?.stop();
        tracker = undefined;
        present = undefined;
        identity = undefined;
        watched = undefined;
        rearm = 'none';
        lastWatchError = undefined;
        absentWhy = undefined;
        knownDenied = undefined;
        lastListError = undefined;
      })().finally(() => {
        stopping = undefined;
      });
      return stopping;
    },
    sweep: () => {
      if (!running) return Promise.reject(new Error(`The watcher for "${shownRoot}" is not started`));
      return sweep();
    },
    offerAgain: (path) => tracker?.unreport(resolve(path)),
    isFolderPresent: () => present,
    on: (event, listener) => emitter.on(event, listener),
    off: (event, listener) => emitter.off(event, listener),
  };
}
