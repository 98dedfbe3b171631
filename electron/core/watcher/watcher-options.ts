import type { Logger } from '../../lib/logger';

/** Options of `createFolderWatcher`; every duration is in milliseconds. */
export type FolderWatcherOptions = {
  /** The watched folder; its subfolders (uploaded/, rejected/, duplicates/) are never looked into. */
  folder: string;
  /** How long size and mtime must stay unchanged before a file is taken. Default 2000. */
  stabilityMs?: number;
  /** Full listing of the folder, catching what file events missed. Default 60000. */
  sweepIntervalMs?: number;
  /** Poll instead of native events: for network folders where events do not arrive. Default false. */
  usePolling?: boolean;
  /** Poll interval when `usePolling` is on. Default 1000. */
  pollIntervalMs?: number;
  /** How often the folder's presence (and identity) is checked, so a vanished folder is re-armed. Default 1000. */
  folderCheckIntervalMs?: number;
  /** Retries of a locked file (EBUSY/EPERM/EACCES) before an `error` is emitted. Default 5. */
  busyRetries?: number;
  /** First delay of those retries; doubles each time. Default 250. */
  busyBaseDelayMs?: number;
  logger?: Logger;
};

export type ResolvedWatcherOptions = Required<Omit<FolderWatcherOptions, 'logger'>> & { checkIntervalMs: number };

function duration(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new RangeError(`Watcher option ${name} must be a number of milliseconds >= ${min}, got ${String(value)}`);
  }
  return value;
}

/** Applies defaults and refuses bad values with a message naming the option. */
export function resolveWatcherOptions(options: FolderWatcherOptions): ResolvedWatcherOptions {
  if (typeof options.folder !== 'string' || options.folder.trim() === '') {
    throw new TypeError('Watcher option folder must be a non-empty folder path');
  }
  const stabilityMs = duration('stabilityMs', options.stabilityMs, 2_000, 0);
  const busyRetries = duration('busyRetries', options.busyRetries, 5, 0);
  if (!Number.isInteger(busyRetries)) throw new RangeError(`Watcher option busyRetries must be a whole number, got ${busyRetries}`);
  return {
    folder: options.folder,
    stabilityMs,
    sweepIntervalMs: duration('sweepIntervalMs', options.sweepIntervalMs, 60_000, 1),
    usePolling: options.usePolling ?? false,
    pollIntervalMs: duration('pollIntervalMs', options.pollIntervalMs, 1_000, 1),
    folderCheckIntervalMs: duration('folderCheckIntervalMs', options.folderCheckIntervalMs, 1_000, 1),
    busyRetries,
    busyBaseDelayMs: duration('busyBaseDelayMs', options.busyBaseDelayMs, 250, 1),
    // Re-stat often enough to see a change a few times inside the window, but not more than twice a second.
    checkIntervalMs: Math.max(10, Math.min(500, stabilityMs / 4)),
  };
}
