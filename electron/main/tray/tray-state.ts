/**
 * What the tray shows, from the engine's events: idle, uploading (files in the queue), or needs attention (a file
 * refused, an upload retrying after a failure, the folder missing, an error notice). Refusals and errors count as
 * "unseen" until the clerk opens the window.
 */
import type { FolderState, JobView, Notice } from '../../../shared/bridge';

export type TrayStatus = 'idle' | 'uploading' | 'attention';

export type TrayModel = {
  status: TrayStatus;
  /** For the tooltip and the menu. */
  summary: string;
  folder: FolderState;
  /** Files still in the queue. */
  active: number;
};

export type TrayTracker = {
  job(job: JobView): void;
  result(job: JobView): void;
  folder(state: FolderState): void;
  notice(notice: Notice): void;
  /** The clerk looked (the window was shown): unseen refusals and errors no longer ask for attention. */
  acknowledge(): void;
  model(): TrayModel;
};

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export function createTrayTracker(): TrayTracker {
  const active = new Map<number, JobView>();
  let unseenRefused = 0;
  let unseenErrors = 0;
  let folder: FolderState = { state: 'stopped' };

  const track = (job: JobView): void => {
    if (job.finished || job.outcome !== undefined) active.delete(job.id);
    else active.set(job.id, job);
  };

  return {
    job: track,
    result(job) {
      track(job);
      active.delete(job.id);
      if (job.outcome === 'rejected') unseenRefused += 1;
    },
    folder(state) {
      folder = state;
    },
    notice(notice) {
      if (notice.level === 'error' && notice.jobId === undefined) unseenErrors += 1;
    },
    acknowledge() {
      unseenRefused = 0;
      unseenErrors = 0;
    },
    model() {
      const retrying = [...active.values()].filter((job) => job.state === 'waiting' && job.lastError !== undefined).length;
      const problems: string[] = [];
      if (folder.state === 'missing') problems.push('the watched folder is missing');
      if (folder.state === 'unreadable') problems.push('the watched folder cannot be read');
      if (unseenRefused > 0) problems.push(`${plural(unseenRefused, 'file')} refused`);
      if (retrying > 0) problems.push(`${plural(retrying, 'upload')} waiting to retry`);
      if (unseenErrors > 0) problems.push(plural(unseenErrors, 'error'));
      const watching = folder.state === 'watching' ? 'watching' : folder.state === 'paused' ? 'paused' : 'not watching';
      if (problems.length > 0) return { status: 'attention', summary: `Needs attention: ${problems.join(', ')}`, folder, active: active.size };
      if (active.size > 0) return { status: 'uploading', summary: `Uploading ${plural(active.size, 'file')} (${watching})`, folder, active: active.size };
      return { status: 'idle', summary: `Idle (${watching})`, folder, active: 0 };
    },
  };
}
