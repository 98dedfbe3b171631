/**
 * The session's upload pipeline for one service: the durable queue pinned to that service (profile and base URL),
 * the claims in a shared export folder, and the folder watcher feeding them. The session replaces it when the
 * service changes, so a job is only ever sent to the service it was queued for.
 */
import { lstat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Settings } from '../../../shared/settings.schema';
import type { Logger } from '../../lib/logger';
import { printableName } from '../../lib/printable-name';
import { LastingError } from '../notices/lasting-error';
import { JOURNAL_FILE, createUploadQueue, type JobService, type QueueApi, type QueueEvents, type RetryPolicy, type UploadQueue } from '../queue';
import { moveNoClobber } from '../queue/archive';
import { claimProblem } from '../queue/claim-errors';
import { createFolderClaims } from '../queue/folder-claims';
import { journalWriteProblem } from '../queue/journal-errors';
import { createFolderWatcher, type FolderWatcher } from '../watcher';
import type { StableFile } from '../watcher/stable-file';

export type UploaderEvents = QueueEvents & {
  /** A file in the watched folder that is not a CSV export (said once per file). */
  ignored: { path: string; name: string };
  /** The watched folder disappeared or came back. */
  presence: { folder: string; present: boolean; unreadable?: boolean };
  /** The watcher handed a file at this path over (stable, or refused unread): `watch --once` counts these. */
  taken: { path: string };
  /**
   * A file handed over (`taken`) could not be taken up: it could not be claimed, or the journal could not take it. It
   * stays in the watched folder; `reason` in plain words. `watch --once` counts it as failed.
   */
  untaken: { path: string; reason: string };
  /**
   * How many files of the watched folder `folder` wait there now, handed over but not taken up (not claimed, or not
   * journaled): said whenever the number changes. The Queue must not say every file was dealt with while some wait.
   */
  waiting: { folder: string; count: number };
};

export type UploaderPartOptions = {
  dataDir: string;
  settings: () => Settings;
  /** Bound to `service`: every call goes to that service's base URL. */
  api: QueueApi;
  /** How the journal names the service; absent: file jobs are neither taken nor resumed (no base URL yet). */
  service: JobService | undefined;
  /** false: only manual batches (the `send` command): no files, no data-folder lock. */
  files: boolean;
  retry?: Partial<RetryPolicy>;
  claimTimeoutMs?: number;
  /** Opened again in the same run for a new service (UploadQueueOptions.reopened). */
  reopened?: boolean;
  logger: Logger;
  emit: <K extends keyof UploaderEvents>(name: K, payload: UploaderEvents[K]) => void;
};

export type UploaderPart = {
  readonly service: JobService | undefined;
  readonly queue: UploadQueue;
  /** Watches a folder (replacing any earlier watch), claiming each stable file before the queue reads it. */
  watch(folder: string): Promise<void>;
  stopWatching(): Promise<void>;
  /** Stops the watcher, the claims and the queue (in-flight uploads resume at the next start). */
  stop(): Promise<void>;
  isIdle(): boolean;
  /** Resolves once claims under way are journaled and the queue is idle. */
  idle(): Promise<void>;
};

/** Opens the queue (taking the data folder's lock unless files are off) and resumes the service's unfinished jobs. */
export async function openUploaderPart(options: UploaderPartOptions): Promise<UploaderPart> {
  const { logger, emit, service } = options;
  const files = options.files && service !== undefined;
  // Claims record the service they are made for: another uploader takes over only those made for its own service.
  const claims = createFolderClaims({
    dataDir: options.dataDir, logger: logger.child('claims'),
    ...(options.claimTimeoutMs !== undefined ? { timeoutMs: options.claimTimeoutMs } : {}),
    ...(service ? { service } : {}),
    say: (message) => emit('notice', message),
  });
  const queue = createUploadQueue({
    dataDir: options.dataDir, api: options.api, settings: options.settings, logger: logger.child('queue'),
    ...(options.retry ? { retry: options.retry } : {}), files, ...(service ? { service } : {}),
    reopened: options.reopened === true,
    takenOver: (job) => claims.takenOver(job.path),
  });
  for (const name of ['job', 'progress', 'result', 'batch', 'error', 'notice', 'over', 'held'] as const) {
    queue.on(name, (payload) => emit(name, payload as never));
  }
  try {
    await queue.start();
  } catch (error) {
    await queue.stop();
    throw error;
  }
  let watcher: FolderWatcher | undefined;
  /** The folder watched now or last (resolved); undefined before the first watch. */
  let watchedFolder: string | undefined;
  /** The folder as the watch was asked for (the settings' words), which the `waiting` event names. */
  let askedFolder: string | undefined;

  /**
   * The files of the watched folder that could not be taken up (claimed, journaled) and wait there, by the path they
   * wait at. One taken up later, or gone from the folder (moved away by the clerk), no longer counts. The watcher says
   * nothing of a file that goes (it just stops offering it), so while any wait, each is looked for now and then.
   */
  const waiting = new Set<string>();
  let waitingSaid = 0;
  let waitingCheck: NodeJS.Timeout | undefined;
  const sayWaiting = (): void => {
    if (waiting.size === 0 && waitingCheck) {
      clearInterval(waitingCheck);
      waitingCheck = undefined;
    }
    if (waiting.size === waitingSaid) return;
    waitingSaid = waiting.size;
    if (askedFolder !== undefined) emit('waiting', { folder: askedFolder, count: waiting.size });
  };
  const waits = (path: string): void => {
    waiting.add(path);
    waitingCheck ??= setInterval(() => {
      void Promise.all([...waiting].map(async (at) => {
        if (await lstat(at).then(() => false, () => true)) waiting.delete(at);
      })).then(sayWaiting);
    }, Math.max(250, options.settings().sweepIntervalMs));
    waitingCheck.unref();
    sayWaiting();
  };
  const takenUp = (path: string): void => {
    if (waiting.delete(path)) sayWaiting();
  };

  /**
   * Why the journal could not take the files found lately (a full disk), while it cannot: said once, not again for
   * each file at each sweep, and said to be over once a file is journaled again.
   */
  let journalProblem: string | undefined;
  const journalPath = join(options.dataDir, JOURNAL_FILE);

  /**
   * Journals a claimed file; when the journal cannot be written (a full disk) the claim is given back to the folder
   * (the promise ends once it is) and the watcher offers it again later.
   */
  const take = async (file: StableFile, from: FolderWatcher | undefined, refused?: string): Promise<void> => {
    try {
      if (refused) queue.refuse(file, refused);
      else queue.add(file);
      takenUp(file.claimedFrom ?? file.path);
      if (journalProblem !== undefined) {
        journalProblem = undefined;
        const message = 'the upload journal can be written again: the files that waited in the watched folder are taken up';
        logger.info(message);
        emit('over', 'journal-written');
        emit('notice', message);
      }
    } catch (error) {
      // The file stays claimed in .processing/; our own unjournaled claims are taken up again at the next start, and
      // the sweep offers the file again (the claim is given back to the folder first).
      const problem = journalWriteProblem(journalPath, error);
      if (problem === journalProblem) {
        logger.debug(`${printableName(file.name)} waits too: ${problem}`);
      } else {
        journalProblem = problem;
        const message = `new files cannot be taken up for now (${printableName(file.name)} first): ${problem}. `
          + 'They wait in the watched folder, where nothing is lost, and are taken up once the journal can be written again.';
        logger.error(message);
        emit('error', new LastingError(message, 'journal-written', { cause: error }));
      }
      emit('untaken', { path: file.claimedFrom ?? file.path, reason: `new files cannot be taken up for now: ${problem}` });
      waits(file.claimedFrom ?? file.path);
      if (file.claimedFrom) {
        await moveNoClobber(file.path, file.claimedFrom).then(
          () => from?.offerAgain(file.claimedFrom as string),
          () => undefined,
        );
      } else {
        from?.offerAgain(file.path);
      }
    }
  };

  /**
   * Why files cannot be claimed in the watched folder (it cannot be written, a file named .processing is in the
   * way), while they cannot: said once, not again for each file at each sweep, and said to be over once a claim works.
   */
  let claimFailure: string | undefined;
  const claimsFail = (problem: string, first: string | undefined, error: unknown): void => {
    if (problem === claimFailure) {
      logger.debug(`${first ? printableName(first) : 'the claim folder'} waits too: ${problem}`);
      return;
    }
    claimFailure = problem;
    const message = `new files cannot be taken up for now${first ? ` (${printableName(first)} first)` : ''}: ${problem}. `
      + 'They wait in the watched folder, where nothing is lost, and are taken up once that is fixed.';
    logger.error(message);
    emit('error', new LastingError(message, 'files-claimed', { cause: error }));
  };
  /**
   * A new folder is watched: what was said of claims in the old one is over, silently (nothing was claimed here, and no
   * file that waited there is taken up). The new folder's own problem, if it has one, is said when it is met: making
   * its claim folder, or at its first claim.
   */
  const claimsForget = (): void => {
    claimFailure = undefined;
    emit('over', 'files-claimed');
  };
  const claimsWork = (): void => {
    if (claimFailure === undefined) return;
    claimFailure = undefined;
    const message = 'files can be claimed in the watched folder again: the files that waited there are taken up';
    logger.info(message);
    emit('over', 'files-claimed');
    emit('notice', message);
  };

  /** Claims the file inside the shared folder before anything reads it, so each file has one uploader. */
  const claiming = new Set<Promise<void>>();
  const claimAndTake = (file: StableFile, from: FolderWatcher, refused?: string): void => {
    emit('taken', { path: file.path });
    const run = claims.claim(file).then(async (claimed) => {
      claimsWork();
      if (!claimed) {
        logger.debug(`${printableName(file.name)} was taken by another uploader (or moved) before this one claimed it`);
        takenUp(file.path);
        return;
      }
      await take(claimed, from, refused);
    }, (error: unknown) => {
      const problem = claimProblem(dirname(file.path), error);
      emit('untaken', { path: file.path, reason: problem });
      // The notice first: the Queue's count of the files that wait points to it.
      claimsFail(problem, file.name, error);
      waits(file.path);
      from.offerAgain(file.path);
    });
    claiming.add(run);
    void run.finally(() => claiming.delete(run));
  };
  /** Claims under way end in the journal (or back in the folder) before the pipeline counts as idle. */
  const claimsSettled = async (): Promise<void> => {
    while (claiming.size > 0) await Promise.allSettled([...claiming]);
  };

  const stopWatching = async (): Promise<void> => {
    const w = watcher;
    watcher = undefined;
    await w?.stop();
    await claimsSettled();
    // Unwatched, its files are not offered again: none counts as waiting to be taken up (the watch's state says so).
    waiting.clear();
    waitingSaid = 0;
    sayWaiting();
  };

  return {
    service,
    queue,
    async watch(folder) {
      await stopWatching();
      // The first watch of this pipeline too: the one it replaced may have said a claim problem it can no longer end.
      if (resolve(folder) !== watchedFolder) claimsForget();
      watchedFolder = resolve(folder);
      askedFolder = folder;
      const s = options.settings();
      const w = createFolderWatcher({
        folder, stabilityMs: s.stabilityMs, sweepIntervalMs: s.sweepIntervalMs, usePolling: s.usePolling,
        pollIntervalMs: s.pollIntervalMs, logger: logger.child('watcher'),
      });
      w.on('stable', (file) => claimAndTake(file, w));
      w.on('refused', (file) => claimAndTake({ path: file.path, name: file.name, size: 0, mtimeMs: 0 }, w, file.reason));
      w.on('ignored', (file) => emit('ignored', file));
      w.on('error', (error) => emit('error', error));
      w.on('folder', ({ present, unreadable }) => emit('presence', { folder, present, ...(unreadable !== undefined ? { unreadable } : {}) }));
      watcher = w;
      await claims.watch(resolve(folder), (claimed) => void take(claimed, watcher), (path) => queue.knows(path)).catch((error: unknown) => {
        claimsFail(claimProblem(resolve(folder), error), undefined, error);
      });
      await w.start();
      const present = w.isFolderPresent();
      if (present !== undefined) emit('presence', { folder, present });
    },
    stopWatching,
    async stop() {
      await stopWatching();
      await claims.stop();
      await queue.stop();
    },
    isIdle: () => claiming.size === 0 && queue.isIdle(),
    async idle() {
      await claimsSettled();
      await queue.idle();
    },
  };
}
