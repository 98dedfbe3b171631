/**
 * The notices the engine keeps for the clerk until they are dismissed or over, so a window opened later (a browser
 * tab after the last one closed, a reloaded page, the desktop window made again) shows what was said meanwhile: a
 * refused file, an engine failure, a message such as "resuming 2 uploads". In memory, for the life of the engine:
 * the journal keeps every refused file with its outcome (History lists them), not whether its message was dismissed.
 *
 * Every change of the list is numbered (`version`), one after the other, and goes out as one event: a notice with the
 * change's number as its id, or the ids that are gone. A window that has the list as of one number applies the events
 * after it, and asks for the list again when a number is missing or another run of the engine speaks.
 */
import { randomBytes } from 'node:crypto';
import { NOTICES_KEPT, type KeptNotice, type Notice, type NoticeList, type NoticesGone } from '../../../shared/bridge';
import { printableName } from '../../lib/printable-name';
import { createTypedEmitter, type TypedEmitter } from '../../lib/typed-emitter';
import type { Job } from '../queue';
import type { SessionEvents } from '../session/session';
import { LastingError } from './lasting-error';

export type NoticeBoardEvents = {
  notice: KeptNotice;
  gone: NoticesGone;
};

export type NoticeBoard = {
  /** The kept notices, newest first. */
  list(): NoticeList;
  /** Takes one away (0: there is none by that number in this run). */
  dismiss(run: string, id: number): number;
  /** Takes away every notice numbered up to `upTo` in this run, and forgets how many were left out. */
  dismissAll(run: string, upTo: number): number;
  /** The notices about a job are over: the refused file was put back in the queue (under whatever name it went back). */
  dropAbout(jobId: number): void;
  on: TypedEmitter<NoticeBoardEvents>['on'];
};

export type NoticeBoardOptions = {
  /** Where the engine's events come from (the session's `on`). */
  on: TypedEmitter<SessionEvents>['on'];
  onListenerError: (error: unknown) => void;
  keep?: number;
  now?: () => number;
};

/** Where the clerk put the file, not the uploader's claimed copy in `.processing/`: a put-back queues it there again. */
const foundAt = (job: Job): string => job.claimedFrom ?? job.path;

/** Said again word for word (a failure at every sweep), a notice replaces the earlier one rather than pile up. */
const sameWords = (a: Notice, b: Notice): boolean =>
  a.level === b.level && a.message === b.message && a.path === b.path && a.until === b.until;

export function createNoticeBoard(options: NoticeBoardOptions): NoticeBoard {
  const keep = options.keep ?? NOTICES_KEPT;
  const now = options.now ?? Date.now;
  const events = createTypedEmitter<NoticeBoardEvents>(options.onListenerError);
  const run = randomBytes(4).toString('hex');
  /** Newest first. */
  let kept: KeptNotice[] = [];
  let version = 0;
  let leftOut = 0;

  const remove = (over: (notice: KeptNotice) => boolean, forgetLeftOut = false): number => {
    const ids = kept.filter(over).map((notice) => notice.id);
    if (ids.length === 0 && !(forgetLeftOut && leftOut > 0)) return 0;
    kept = kept.filter((notice) => !over(notice));
    if (forgetLeftOut) leftOut = 0;
    version += 1;
    events.emit('gone', { run, version, ids, leftOut });
    return ids.length;
  };

  const add = (notice: Notice): void => {
    remove((earlier) => sameWords(earlier, notice));
    version += 1;
    const numbered: KeptNotice = { ...notice, id: version, run, at: now() };
    kept.unshift(numbered);
    events.emit('notice', numbered);
    if (kept.length > keep) {
      const oldest = new Set(kept.slice(keep).map((n) => n.id));
      leftOut += oldest.size;
      remove((n) => oldest.has(n.id));
    }
  };

  const onResult = (job: Job): void => {
    if (job.state !== 'rejected') return;
    // The path lets every window see when the file goes again: a put-back queues it as a new job (a new id) there.
    add({ level: 'warning', message: `${job.name} was refused: ${job.lastError ?? 'see its error report'}`, jobId: job.id, path: foundAt(job) });
  };
  /**
   * A notice about a file is over once a job for that same file is found: the refused file put back in the queue (the
   * put-back queues it as a new job where it was found), or a fixed copy saved into the folder. Only a job that is
   * found (not one moving on): a new version queued before the refusal was said (the notice says so itself) leaves it.
   */
  const onJob = (job: Job): void => {
    if (job.state !== 'found' || job.archivedAt !== undefined) return;
    const path = foundAt(job);
    remove((notice) => notice.jobId !== undefined && notice.jobId !== job.id && notice.path === path);
  };

  options.on('result', onResult);
  options.on('job', onJob);
  // A notice that uploads stopped is over once the folder is watched again.
  options.on('folder', (state) => {
    if (state.state === 'watching') remove((notice) => notice.until === 'watching');
  });
  options.on('error', (error) => add({
    level: 'error', message: error.message, ...(error instanceof LastingError ? { until: error.until } : {}),
  }));
  options.on('over', (end) => void remove((notice) => notice.until === end));
  options.on('warning', (warning) => add(typeof warning === 'string' ? { level: 'warning', message: warning } : { level: 'warning', ...warning }));
  // Said once per file while it stays there: without it a clerk who saved an .xlsx sees nothing happen.
  options.on('ignored', ({ name }) => add({
    level: 'info',
    message: `${printableName(name)} is not a CSV export, so it is not uploaded; it stays in the watched folder. Save the export as CSV to send it.`,
  }));

  return {
    list: () => ({ run, version, items: kept.map((notice) => ({ ...notice })), leftOut }),
    dismiss: (from, id) => (from === run ? remove((notice) => notice.id === id) : 0),
    dismissAll: (from, upTo) => (from === run ? remove((notice) => notice.id <= upTo, true) : 0),
    dropAbout: (jobId) => void remove((notice) => notice.jobId === jobId),
    on: events.on,
  };
}
