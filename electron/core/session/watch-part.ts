/** The watched folder as the clerk controls it: choose, start, pause, resume, stop; its state for the screens. */
import { resolve } from 'node:path';
import type { FolderState } from '../../../shared/bridge';
import type { Settings } from '../../../shared/settings.schema';
import { NotConfiguredError } from './session-errors';

export type WatchPart = {
  state(): FolderState;
  /**
   * Watches the folder in settings (replacing any earlier watch). When the service cannot take files (no base URL, the
   * app's own server stopped) it throws, and the watch starts by itself at the next `reopen` that can open it, unless
   * the clerk stops it first.
   */
  start(): Promise<FolderState>;
  /** Stops taking new files; files already in the queue go on. */
  pause(): Promise<FolderState>;
  resume(): Promise<FolderState>;
  stop(): Promise<FolderState>;
  /**
   * The folder in settings changed, or the upload pipeline was replaced: a running watch opens again, and so does one
   * that a change of service suspended. It throws only when a running watch cannot go on.
   */
  reopen(): Promise<FolderState>;
  /** The service changed to one uploads cannot go to (no base URL...): the watch stops until `reopen` can open it. */
  suspend(): Promise<FolderState>;
  /** The watcher saw the folder go or come back. */
  /** The folder came or went; `unreadable` (when known) whether it is there but may not be listed. */
  presence(folder: string, present: boolean, unreadable?: boolean): void;
  /** The watcher found that this user may not list the folder (said before the folder counts as gone). */
  unreadable(folder: string): void;
  /** How many files wait in the watched folder, found but not taken up (they could not be claimed or journaled). */
  waiting(folder: string, count: number): void;
  /** What holds every file (`held` answers it) changed: the state is said again. */
  heldChanged(): void;
};

export type WatchPartOptions = {
  settings: () => Settings;
  /** Starts watching the folder; throws (NotConfiguredError...) when uploads cannot happen. */
  open(folder: string): Promise<void>;
  /** Why uploads cannot happen now (the service cannot take files), said with every state; undefined when they can. */
  noService?: () => FolderState['noService'];
  /**
   * What holds every file until the clerk acts (the upload queue's held), said with every state; undefined when
   * nothing does. A change is told with heldChanged.
   */
  held?: () => FolderState['held'];
  close(): Promise<void>;
  changed(state: FolderState): void;
};

type Mode = 'stopped' | 'watching' | 'paused';

const noFolder = () => new NotConfiguredError('No watched folder is set: choose the folder the payroll system exports to');

export function createWatchPart(options: WatchPartOptions): WatchPart {
  let mode: Mode = 'stopped';
  // Stopped by a change of service, not by the clerk: the next reopen (the service usable again) starts it again.
  let suspended = false;
  let watching: string | undefined;
  let present: boolean | undefined;
  // The folder is not there for this user because it may not list it: said apart from a folder that is missing, as
  // the remedy differs (access to ask for, not a drive to connect). Until the folder is there again.
  let unreadable = false;
  // Files found in the watched folder that could not be taken up: they wait there, and the Queue says so.
  let untaken = 0;
  // While a watch opens, what it finds is said by the state it ends in, not as a change of its own.
  let opening = false;
  // One change at a time: a start racing a stop would leave a watcher nobody owns.
  let chain: Promise<unknown> = Promise.resolve();

  const state = (): FolderState => {
    const folder = watching ?? options.settings().watchedFolder;
    const shown = mode === 'watching' && present === false ? (unreadable ? 'unreadable' : 'missing') : mode;
    const noService = options.noService?.();
    const held = options.held?.();
    return {
      ...(folder ? { folder } : {}), state: shown, ...(noService ? { noService } : {}),
      ...(shown === 'watching' && untaken > 0 ? { untaken } : {}), ...(held ? { held } : {}),
    };
  };
  const announce = (): FolderState => {
    const now = state();
    options.changed(now);
    return now;
  };

  const close = async (): Promise<void> => {
    watching = undefined;
    present = undefined;
    unreadable = false;
    untaken = 0;
    await options.close();
  };

  const open = async (): Promise<void> => {
    const folder = options.settings().watchedFolder;
    if (!folder) throw noFolder();
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

  /**
   * The clerk asked to watch. When the service cannot take files yet (no base URL, the app's own server stopped) it
   * starts by itself once reopen can open it; without a folder there is nothing to wait for.
   */
  const startWatching = async (): Promise<FolderState> => {
    if (!options.settings().watchedFolder) throw noFolder();
    try {
      await open();
    } catch (error) {
      suspended = true;
      throw error;
    }
    suspended = false;
    mode = 'watching';
    return announce();
  };

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };

  return {
    state,
    start: () => serial(startWatching),
    pause: () => serial(async () => {
      if (mode !== 'watching') return state();
      await close();
      mode = 'paused';
      return announce();
    }),
    resume: () => serial(async () => (mode === 'watching' ? state() : startWatching())),
    stop: () => serial(async () => {
      suspended = false;
      await close();
      mode = 'stopped';
      return announce();
    }),
    reopen: () => serial(async () => {
      if (mode !== 'watching' && !suspended) return announce();
      const running = mode === 'watching';
      try {
        await open();
      } catch (error) {
        // The watch cannot go on (the new profile has no base URL...): it stops until the service is usable again,
        // and the caller tells the clerk why.
        mode = 'stopped';
        suspended = true;
        announce();
        if (running) throw error;
        return state();
      }
      mode = 'watching';
      suspended = false;
      return announce();
    }),
    suspend: () => serial(async () => {
      if (mode !== 'watching' && !suspended) return state();
      suspended = true;
      await close();
      mode = 'stopped';
      return announce();
    }),
    presence(folder, now, cannotList) {
      // Unreadable is said by the folder's error before it counts as gone; here it only ends (there, or removed).
      const nowUnreadable = now ? false : cannotList ?? unreadable;
      if (folder !== watching || (now === present && nowUnreadable === unreadable)) return;
      present = now;
      unreadable = nowUnreadable;
      if (!opening) announce();
    },
    waiting(folder, count) {
      if (folder !== watching || count === untaken) return;
      untaken = count;
      if (!opening) announce();
    },
    heldChanged() {
      if (!opening) announce();
    },
    unreadable(folder) {
      if (watching === undefined || resolve(folder) !== resolve(watching) || unreadable) return;
      unreadable = true;
      // Before the folder counts as gone, this only colours how it will be shown; after (it was missing), it is news.
      if (present === false && !opening) announce();
    },
  };
}
