/** Live events from the core: a hook for one event, and the wiring that keeps the query cache current. */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { BridgeEvent, BridgeEventName, JobProgressView, JobView, JobWindow } from '../../shared/bridge';
import { useBridge } from './bridge-context';
import { createEventBatcher, type Schedule } from './event-batcher';
import { keyOf } from './bridge-queries';

/** Calls the listener for every `event` while the component is mounted (the latest listener, without resubscribing). */
export function useBridgeEvent<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvent<E>) => void): void {
  const bridge = useBridge();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => bridge.on(event, (payload) => latest.current(payload)), [bridge, event]);
}

/** The in-flight files of the Queue screen: everything not yet filed away, oldest first. */
export const QUEUE_QUERY = { finished: false, sort: { by: 'foundAt', dir: 'asc' }, limit: 500 } as const;
export const queueKey = keyOf('jobs.query', QUEUE_QUERY);
/** Upload and hashing progress by job id, fed only by events. */
export const progressKey = ['live', 'progress'] as const;
export type ProgressById = Record<number, JobProgressView>;
/** The latest notices for the clerk, newest first. */
export const noticesKey = ['live', 'notices'] as const;
export type NoticeItem = BridgeEvent<'notice'> & { at: number; key: number };

type LiveEvent =
  | { kind: 'job'; job: JobView }
  | { kind: 'progress'; progress: JobProgressView }
  /** The queue must be fetched again (the service uploads go to changed): after the events before it, never before. */
  | { kind: 'refetchQueue' };

/**
 * Applies a frame's worth of job and progress events to the cached queue and progress.
 *
 * A job event cannot say which service the file waits for (`waitsFor` needs to know where uploads go now, which only
 * `jobs.query` answers), so only a fetch of the queue can be trusted with it. Two things keep a stale "Waiting to
 * retry" from outliving a change of service: the fetch asked for by a folder state is made after the job events that
 * came before it (the old pipeline's last words, gathered in the same frame, would otherwise land on the fresh answer),
 * and an event written into a queue that is waiting to be fetched again (the Queue screen is not open) leaves it so:
 * writing into the cache would otherwise count as fresh data, and the screen would open on the old rows.
 */
export function applyLiveEvents(client: QueryClient, events: LiveEvent[]): void {
  const jobs = new Map<number, JobView>();
  const progress: JobProgressView[] = [];
  let refetchQueue = false;
  for (const event of events) {
    if (event.kind === 'job') jobs.set(event.job.id, event.job);
    else if (event.kind === 'progress') progress.push(event.progress);
    else refetchQueue = true;
  }
  if (jobs.size > 0) {
    const outdated = client.getQueryState(queueKey)?.isInvalidated === true;
    client.setQueryData<JobWindow>(queueKey, (current) => {
      if (!current) return current;
      const byId = new Map(current.items.map((job) => [job.id, job]));
      let total = current.total;
      for (const job of jobs.values()) {
        const had = byId.has(job.id);
        if (job.finished) {
          if (had) { byId.delete(job.id); total -= 1; }
        } else {
          if (!had) total += 1;
          byId.set(job.id, job);
        }
      }
      return { total: Math.max(total, byId.size), items: [...byId.values()].sort((a, b) => a.foundAt - b.foundAt || a.id - b.id) };
    });
    // Still to be fetched again; a fetch under way (the screen is open) brings the answer that settles it.
    if (outdated && !refetchQueue) void client.invalidateQueries({ queryKey: queueKey, refetchType: 'none' });
  }
  if (refetchQueue) void client.invalidateQueries({ queryKey: queueKey });
  if (progress.length > 0 || jobs.size > 0) {
    client.setQueryData<ProgressById>(progressKey, (current = {}) => {
      const next = { ...current };
      for (const p of progress) next[p.id] = p;
      // Progress belongs to the step that sent it: once the job moves on, its bar goes.
      for (const job of jobs.values()) {
        const phase = next[job.id]?.phase;
        if (phase && (job.finished || (phase === 'uploading' ? job.state !== 'uploading' : job.state !== 'hashing'))) delete next[job.id];
      }
      return next;
    });
  }
}

const MAX_NOTICES = 5;

/**
 * A notice about one file is over once a job for that same file is found: the refused file put back in the queue (in
 * this window or another one, the desktop window or a browser tab: the put-back queues it as a new job, under a new
 * id, where it was found), or a fixed copy saved into the folder. It goes again then, with notices of its own. Only a
 * job that is found (not one moving on): a new version queued before the refusal was said (the notice says so itself)
 * leaves it. Called for each event as it comes, in order with the notices, so it never takes away a later notice.
 */
function dropNoticesFoundAgain(client: QueryClient, job: JobView): void {
  if (job.state !== 'found' || job.finished) return;
  const over = (notice: NoticeItem) => notice.jobId !== undefined && notice.jobId !== job.id && notice.path === job.path;
  const current = client.getQueryData<NoticeItem[]>(noticesKey);
  // Most job events are about other files: the notices (and the screens showing them) stay as they are.
  if (current?.some(over)) client.setQueryData<NoticeItem[]>(noticesKey, current.filter((notice) => !over(notice)));
}

/**
 * Keeps the cache current from the core's events, for the whole app: the queue and progress update in place, finished
 * files and batches refresh the History windows (at most every two seconds), folder and local-server states replace
 * their cached answers, and a folder state (also said when the service changes) refetches the queue, once the job
 * events before it are applied (applyLiveEvents); once the folder is watched again, the notices that said the watch
 * stopped go, and once a file is found again, the notices about it (dropNoticesFoundAgain).
 */
export function useLiveUpdates(schedule?: Schedule): void {
  const bridge = useBridge();
  const client = useQueryClient();
  useEffect(() => {
    const batcher = createEventBatcher<LiveEvent>((events) => applyLiveEvents(client, events), schedule);
    let historyTimer: ReturnType<typeof setTimeout> | undefined;
    const refreshHistory = () => {
      historyTimer ??= setTimeout(() => {
        historyTimer = undefined;
        void client.invalidateQueries({ queryKey: ['history'] });
      }, 2000);
    };
    let noticeKey = 0;
    const offs = [
      bridge.on('job', (job) => { dropNoticesFoundAgain(client, job); batcher.push({ kind: 'job', job }); }),
      bridge.on('result', (job) => { batcher.push({ kind: 'job', job }); refreshHistory(); }),
      bridge.on('progress', (progress) => batcher.push({ kind: 'progress', progress })),
      bridge.on('batch', () => { void client.invalidateQueries({ queryKey: ['batches.list'] }); refreshHistory(); }),
      bridge.on('folder', (state) => {
        client.setQueryData(keyOf('watch.state', {}), state);
        // A notice that the watch stopped is over once it watches again.
        if (state.state === 'watching') {
          client.setQueryData<NoticeItem[]>(noticesKey, (current) => current?.filter((notice) => notice.until !== 'watching'));
        }
        // Said whenever the service uploads go to changes too: which queued files wait for another one changes with it.
        // Through the batcher, so the fetch comes after the job events that came before this one.
        batcher.push({ kind: 'refetchQueue' });
      }),
      bridge.on('localServer', (state) => client.setQueryData(keyOf('localServer.state', {}), state)),
      bridge.on('notice', (notice) => client.setQueryData<NoticeItem[]>(noticesKey, (current = []) =>
        [{ ...notice, at: Date.now(), key: (noticeKey += 1) }, ...current].slice(0, MAX_NOTICES))),
    ];
    return () => {
      batcher.close();
      if (historyTimer) clearTimeout(historyTimer);
      for (const off of offs) off();
    };
  }, [bridge, client, schedule]);
}
