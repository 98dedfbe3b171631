import { lstat, open } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename } from 'node:path';
import type { Logger } from '../../lib/logger';
import { otherFileKind } from '../../lib/file-kind';
import { printableName, printableText } from '../../lib/printable-name';
import { busyBackoffMs, classifyFsError, describeError, errorCode } from '../../lib/fs-errors';

import { FIRST_LINE_PEEK_BYTES, holdsFirstLineOnly } from './first-line-only';
import { identityOf, type StableFile } from './stable-file';
import { UnreadableFileError } from './unreadable-file-error';

export type { StableFile } from './stable-file';

export type StabilityTrackerOptions = {
  stabilityMs: number;
  /** How often a pending file is re-stat'ed. */
  checkIntervalMs: number;
  /** Bounded retries for EBUSY/EPERM/EACCES before the file is reported and left for the next sweep. */
  busyRetries: number;
  busyBaseDelayMs: number;
  onStable: (file: StableFile) => void;
  /** A candidate that is not a regular file (a symbolic link, a FIFO, a device): never read, only reported once. */
  onRefused: (file: { path: string; name: string; reason: string }) => void;
  onError: (error: Error) => void;
  logger: Logger;
};

/**
 * Decides when a file has finished being written. Every `consider(path)` for the same path merges into one
 * pending check; a version (size + mtime) is reported once, and again only if it changes afterwards.
 */
export type StabilityTracker = {
  consider(path: string): void;
  /** The file went away: drop its pending check and its "already reported" memory. */
  forget(path: string): void;
  /** Offers the file's current version again at the next look (the queue could not take it). */
  unreport(path: string): void;
  /** After a full listing: forget reported versions of files no longer there, so memory stays bounded. */
  retainOnly(paths: ReadonlySet<string>): void;
  /** Drop every pending check (the folder went away); reported versions are kept. */
  cancelAll(): void;
  pendingCount(): number;
  /** Clears every timer and waits for in-flight stat/open calls; nothing is reported afterwards. */
  stop(): Promise<void>;
};

type Pending = {
  size?: number;
  mtimeMs?: number;
  /** performance.now() when the current size/mtime was first seen. */
  since: number;
  busyAttempts: number;
  timer?: NodeJS.Timeout;
  /** The current version holds only its first line, as found when its stability window ended: it waits longer. */
  firstLineOnly?: boolean;
};

/** Why a path that is not a regular file is refused. */
export function notRegular(info: Stats): string {
  const what = otherFileKind(info) ?? 'a regular file';
  const unread = info.isSymbolicLink() ? 'the link itself was moved here; its target was never read' : 'it was moved here unread';
  return `it is ${what}, not a regular file: only files exported into the folder itself are uploaded (${unread})`;
}

const versionKey = (size: number, mtimeMs: number): string => `${size}:${mtimeMs}`;

/**
 * An empty file, or one that holds only its first line, waits this many stability windows before it is taken (and
 * refused as empty, or as a header without data rows): exporters often create the file, or write its header, first
 * and write the rows only once their query is done, and such a file taken early would be filed in rejected/ with the
 * writer's rows then landing there, unread.
 */
export const EMPTY_FILE_WAIT_FACTOR = 5;

export function createStabilityTracker(options: StabilityTrackerOptions): StabilityTracker {
  const { stabilityMs, checkIntervalMs, logger } = options;
  const pending = new Map<string, Pending>();
  const reported = new Map<string, string>();
  /**
   * Why a file could not be read, as last reported: each sweep tries it again, but says so again only when the
   * reason changed (a file that stays unreadable for a day is one warning for the clerk, not one a minute).
   */
  const unreadable = new Map<string, string>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  const schedule = (path: string, entry: Pending, delayMs: number): void => {
    if (stopped) return;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      const run = check(path, entry).catch((error: unknown) => {
        // check() handles its own fs errors; this is the last guard so nothing escapes as an unhandled rejection.
        options.onError(new Error(`Watcher check of "${printableText(path)}" failed: ${describeError(error)}`));
      });
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run));
    }, delayMs);
  };

  const drop = (path: string, entry: Pending): void => {
    if (entry.timer) clearTimeout(entry.timer);
    if (pending.get(path) === entry) pending.delete(path);
  };

  const onFsError = (path: string, entry: Pending, error: unknown): void => {
    const kind = classifyFsError(error);
    // As every line and message of the watcher's says it: a line break in the name would break the log line.
    const name = printableName(basename(path));
    if (kind === 'gone') {
      logger.debug(`${name} disappeared before it settled`);
      drop(path, entry);
      return;
    }
    if (kind === 'busy' && entry.busyAttempts < options.busyRetries) {
      const delay = busyBackoffMs(entry.busyAttempts, options.busyBaseDelayMs);
      entry.busyAttempts += 1;
      logger.debug(`${name} is busy (${errorCode(error)}), retry ${entry.busyAttempts} in ${delay} ms`);
      schedule(path, entry, delay);
      return;
    }
    drop(path, entry);
    const why = kind === 'busy'
      ? `another program keeps it locked, or this user may not read it (${errorCode(error)})`
      : describeError(error);
    const reason = `it could not be read: ${why}`;
    if (unreadable.get(path) === reason) {
      logger.debug(`${name} is still unreadable: ${why}`);
      return;
    }
    unreadable.set(path, reason);
    const todo = kind === 'busy' ? '; close the program that holds it, or ask for read access to it' : '';
    options.onError(new UnreadableFileError(
      `${name} cannot be read: ${why}. It stays in the folder and is tried again regularly${todo}.`, path, reason, { cause: error },
    ));
  };

  const check = async (path: string, entry: Pending): Promise<void> => {
    if (stopped || pending.get(path) !== entry) return;
    let info;
    try {
      // lstat: a link is judged as the link, its target is never looked at (it may be anywhere on the disk).
      info = await lstat(path);
    } catch (error) {
      if (!stopped && pending.get(path) === entry) onFsError(path, entry, error);
      return;
    }
    if (stopped || pending.get(path) !== entry) return;
    if (info.isDirectory()) {
      drop(path, entry);
      return;
    }
    if (!info.isFile()) {
      drop(path, entry);
      const key = `refused:${versionKey(info.size, info.mtimeMs)}`;
      if (reported.get(path) === key) return;
      reported.set(path, key);
      options.onRefused({ path, name: basename(path), reason: notRegular(info) });
      return;
    }
    const key = versionKey(info.size, info.mtimeMs);
    if (reported.get(path) === key) {
      drop(path, entry);
      return;
    }
    const now = performance.now();
    if (entry.size !== info.size || entry.mtimeMs !== info.mtimeMs) {
      entry.size = info.size;
      entry.mtimeMs = info.mtimeMs;
      entry.since = now;
      entry.firstLineOnly = undefined;
      schedule(path, entry, stabilityMs === 0 ? 0 : checkIntervalMs);
      return;
    }
    const longWait = stabilityMs * EMPTY_FILE_WAIT_FACTOR;
    const window = info.size === 0 || entry.firstLineOnly === true ? longWait : stabilityMs;
    if (now - entry.since < window) {
      schedule(path, entry, Math.min(checkIntervalMs, window - (now - entry.since)));
      return;
    }
    // A small file that has not waited the long wait yet is looked into once: the header alone waits as an empty file.
    const peek = entry.firstLineOnly === undefined && info.size > 0 && info.size <= FIRST_LINE_PEEK_BYTES && now - entry.since < longWait;
    // Size and mtime held still. On Windows a writer that holds the file without sharing it fails the open below;
    // on Linux and macOS opening for reading always succeeds, so stillness is the only sign (docs/uploader.md says
    // what an exporter that pauses mid-file should do).
    let firstLineOnly = false;
    try {
      const handle = await open(path, 'r');
      try {
        if (peek) firstLineOnly = await holdsFirstLineOnly(handle, info.size);
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (!stopped && pending.get(path) === entry) onFsError(path, entry, error);
      return;
    }
    if (stopped || pending.get(path) !== entry) return;
    if (peek) entry.firstLineOnly = firstLineOnly;
    if (firstLineOnly) {
      logger.debug(`${printableName(basename(path))} holds only its first line so far: it waits ${longWait} ms unchanged before it is taken`);
      schedule(path, entry, Math.max(0, Math.min(checkIntervalMs, longWait - (performance.now() - entry.since))));
      return;
    }
    drop(path, entry);
    reported.set(path, key);
    unreadable.delete(path);
    options.onStable({ path, name: basename(path), size: info.size, mtimeMs: info.mtimeMs, identity: identityOf(info) });
  };

  return {
    consider(path) {
      if (stopped || pending.has(path)) return;
      const entry: Pending = { since: performance.now(), busyAttempts: 0 };
      pending.set(path, entry);
      schedule(path, entry, 0);
    },
    forget(path) {
      const entry = pending.get(path);
      if (entry) drop(path, entry);
      reported.delete(path);
      unreadable.delete(path);
    },
    unreport(path) {
      reported.delete(path);
    },
    retainOnly(paths) {
      for (const path of [...reported.keys()]) if (!paths.has(path)) reported.delete(path);
      for (const path of [...unreadable.keys()]) if (!paths.has(path)) unreadable.delete(path);
    },
    cancelAll() {
      for (const [path, entry] of [...pending]) drop(path, entry);
    },
    pendingCount: () => pending.size,
    async stop() {
      stopped = true;
      for (const [path, entry] of [...pending]) drop(path, entry);
      await Promise.allSettled([...inFlight]);
    },
  };
}
