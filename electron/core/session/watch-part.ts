/** The watched folder as the clerk controls it: choose, start, pause, resume, stop; its state for the screens. */
import type { FolderState } from '../../../shared/bridge';
import type { Settings } from '../../../shared/settings.schema';
import { NotConfiguredError } from './session-errors';

export type WatchPart = {
  state(): FolderState;
  /** Watches the folder in settings (replacing any earlier watch). */
  start(): Promise<FolderState>;
  /** Stops taking new files; files already in the queue go on. */
  pause(): Promise<FolderState>;
  resume(): Promise<FolderState>;
  stop(): Promise<FolderState>;
  /** The folder in settings changed, or the upload pipeline was replaced: a running watch opens again. */
  reopen(): Promise<FolderState>;
  /** The watcher saw the folder go or come back. */
  presence(folder: string, present: boolean): void;
};

export type WatchPartOptions = {
  settings: () => Settings;
  /** Starts watching the folder; throws (NotConfiguredError...) when uploads cannot happen. */
  open(folder: string): Promise<void>;
  close(): Promise<void>;
  changed(state: FolderState): void;
};

type Mode = 'stopped' | 'watching' | 'paused';

export function createWatchPart(options: WatchPartOptions): WatchPart {
  let mode: Mode = 'stopped';
  let watching: string | undefined;
  let present: boolean | undefined;
  // While a watch opens, what it finds is said by the state it ends in, not as a change of its own.
  let opening = false;
  // One change at a time: a start racing a stop would leave a watcher nobody owns.
  let chain: Promise<unknown> = Promise.resolve();

  const state = (): FolderState => {
    const folder = watching ?? options.settings().watchedFolder;
    const shown = mode === 'watching' && present === false ? 'missing' : mode;
    return { ...(folder ? { folder } : {}), state: shown };
  };
  const announce = (): FolderState => {
    const now = state();
    options.changed(now);
    return now;
  };

  const close = async (): Promise<void> => {
    watching = undefined;
    present = undefined;
    await options.close();
  };

  const open = async (): Promise<void> => {
    const folder = options.settings().watchedFolder;
    if (!folder) throw new NotConfiguredError('No watched folder is set: choose the folder the payroll system exports to');
    await close();
    watching = folder;
    opening = true;
    try {
      await options.open(folder);
    } catch (error) {
      watching = undefined;
      throw error;
    } finally {
      opening = false;
    }
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
    reopen: () => serial(async () => {
      if (mode !== 'watching') return announce();
      try {
        await open();
      } catch (error) {
        // The watch cannot go on (the new profile has no base URL...): it stops, and the caller tells the clerk why.
        mode = 'stopped';
        announce();
        throw error;
      }
      return announce();
    }),
    presence(folder, now) {
      if (folder !== watching || now === present) return;
      present = now;
      if (!opening) announce();
    },
  };
}
