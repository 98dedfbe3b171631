/** The watched folder as the clerk controls it: choose, start, pause, resume, stop; its state for the screens. */
import type { FolderState } from '../../../shared/bridge';
import type { Settings } from '../../../shared/settings.schema';
import type { Logger } from '../../lib/logger';
import type { StableFile } from '../queue';
import { createFolderWatcher, type FolderWatcher } from '../watcher';
import { NotConfiguredError } from './session-errors';

export type WatchPart = {
  state(): FolderState;
  /** Watches the folder in settings (replacing any earlier watch). */
  start(): Promise<FolderState>;
  /** Stops taking new files; files already in the queue go on. */
  pause(): Promise<FolderState>;
  resume(): Promise<FolderState>;
  stop(): Promise<FolderState>;
  /** The folder in settings changed: a running watch moves to it. */
  folderChanged(): Promise<FolderState>;
};

export type WatchPartOptions = {
  settings: () => Settings;
  logger: Logger;
  /** Checks that uploads can happen (base URL set) and opens the queue before the first file is handed over. */
  prepare(): Promise<(file: StableFile) => void>;
  error(error: Error): void;
  changed(state: FolderState): void;
};

type Mode = 'stopped' | 'watching' | 'paused';

export function createWatchPart(options: WatchPartOptions): WatchPart {
  let mode: Mode = 'stopped';
  let watcher: FolderWatcher | undefined;
  let present: boolean | undefined;
  // One change at a time: a start racing a stop would leave a watcher nobody owns.
  let chain: Promise<unknown> = Promise.resolve();

  const state = (): FolderState => {
    const folder = watcher?.folder ?? options.settings().watchedFolder;
    const shown = mode === 'watching' && present === false ? 'missing' : mode;
    return { ...(folder ? { folder } : {}), state: shown };
  };
  const announce = (): FolderState => {
    const now = state();
    options.changed(now);
    return now;
  };

  const close = async (): Promise<void> => {
    const w = watcher;
    watcher = undefined;
    present = undefined;
    await w?.stop();
  };

  const open = async (): Promise<void> => {
    const s = options.settings();
    const folder = s.watchedFolder;
    if (!folder) throw new NotConfiguredError('No watched folder is set: choose the folder the payroll system exports to');
    const take = await options.prepare();
    await close();
    const w = createFolderWatcher({
      folder, stabilityMs: s.stabilityMs, sweepIntervalMs: s.sweepIntervalMs, usePolling: s.usePolling,
      pollIntervalMs: s.pollIntervalMs, logger: options.logger,
    });
    w.on('stable', take);
    w.on('error', (error) => options.error(error));
    w.on('folder', ({ present: now }) => {
      present = now;
      announce();
    });
    watcher = w;
    await w.start();
    present = w.isFolderPresent();
  };

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };

  return {
    state,
    start: () => serial(async () => {
      await open();
      mode = 'watching';
      return announce();
    }),
    pause: () => serial(async () => {
      if (mode !== 'watching') return state();
      await close();
      mode = 'paused';
      return announce();
    }),
    resume: () => serial(async () => {
      if (mode === 'watching') return state();
      await open();
      mode = 'watching';
      return announce();
    }),
    stop: () => serial(async () => {
      await close();
      mode = 'stopped';
      return announce();
    }),
    folderChanged: () => serial(async () => {
      if (mode === 'watching') await open();
      return announce();
    }),
  };
}
