/** Live events from the core: a hook for one event, and the wiring that keeps the query cache current. */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { BridgeApi, BridgeError, BridgeEvent, BridgeEventName, JobProgressView, JobView, JobWindow } from '../../shared/bridge';
import { useBridge } from './bridge-context';
import { createEventBatcher, type Schedule } from './event-batcher';
import { keyOf, putAnswer } from './bridge-queries';
import { applyNoticeChange, EMPTY_NOTICES, fromList, type NoticeChange, type NoticeItem, type NoticesState } from './notices-state';

export type { NoticeItem, NoticesState } from './notices-state';

/** Calls the listener for every `event` while the component is mounted (the latest listener, without resubscribing). */
export function useBridgeEvent<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvent<E>) => void): void {
  const bridge = useBridge();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => bridge.on(event, (payload) => latest.current(payload)), [bridge, event]);
}

/** The in-flight files of the Queue screen: everything not yet filed away, oldest first. */
const QUEUE_QUERY = { finished: false, sort: { by: 'foundAt', dir: 'asc' }, limit: 500 } as const;
export const queueKey = keyOf('jobs.query', QUEUE_QUERY);
/** Upload and hashing progress by job id, fed only by events. */
export const progressKey = ['live', 'progress'] as const;
export type ProgressById = Record<number, JobProgressView>;
/** The notices for the clerk: the core's list (notices.list), kept current by its events (NoticesState). */
export const noticesKey = ['notices.list'] as const;

type LiveEvent =
  | { kind: 'job'; job: JobView }
  | { kind: 'progress'; progress: JobProgressView }
  /** The queue must be fetched again (the service uploads go to changed): after the events before it, never before. */
  | { kind: 'refetchQueue' };

/** A window of rows with these jobs' latest views put in: moved on in place, new ones added, finished ones taken out. */
function withJobs(current: JobWindow, jobs: Iterable<JobView>): JobWindow {
  const byId = new Map(current.items.map((job) => [job.id, job]));
  let total = current.total;
  for (const job of jobs) {
    const had = byId.has(job.id);
    if (job.finished) {
      if (had) { byId.delete(job.id); total -= 1; }
    } else {
      if (!had) total += 1;
      byId.set(job.id, job);
    }
  }
  return { total: Math.max(total, byId.size), items: [...byId.values()].sort((a, b) => a.foundAt - b.foundAt || a.id - b.id) };
}

/** The fetches of the queue under way, by client: each keeps the job events put into the cache meanwhile. */
const queueFetches = new WeakMap<QueryClient, Set<JobView[]>>();

/**
 * The queue as the core answers it, with the job events put into the cache while the answer was on its way put in
 * again. The answer may have been made before such an event: in browser mode it comes on another connection than the
 * events, and could land after one and put the row back as it was (a file shown waiting after the event said it was
 * uploaded). An event older than the answer, put in again, is followed by the newer event that made the answer newer:
 * the core tells every change of a job, in order, so each row ends as its last event says.
 */
async function fetchQueue(client: QueryClient, bridge: Pick<BridgeApi, 'call'>): Promise<JobWindow> {
  let fetches = queueFetches.get(client);
  if (!fetches) queueFetches.set(client, (fetches = new Set()));
  const meanwhile: JobView[] = [];
  fetches.add(meanwhile);
  try {
    return withJobs(await bridge.call('jobs.query', QUEUE_QUERY), meanwhile);
  } finally {
    fetches.delete(meanwhile);
  }
}

/** The Queue screen's rows: the in-flight files, as fetchQueue answers them and the job events keep them. */
export function useQueue() {
  const bridge = useBridge();
  const client = useQueryClient();
  return useQuery<JobWindow, BridgeError>({ queryKey: queueKey, queryFn: () => fetchQueue(client, bridge), staleTime: Infinity });
}

/**
 * Applies a frame's worth of job and progress events to the cached queue and progress.
 *
 * A job event cannot say which service the file waits for (`waitsFor` needs to know where uploads go now, which only
 * `jobs.query` answers), so only a fetch of the queue can be trusted with it. Two things keep a stale "Waiting to
 * retry" from outliving a change of service: the fetch asked for by a folder state is made after the job events that
 * came before it (the old pipeline's last words, gathered in the same frame, would otherwise land on the fresh answer),
 * and an event written into a queue that is waiting to be fetched again (the Queue screen is not open) leaves it so:
 * writing into the cache would otherwise count as fresh data, and the screen would open on the old rows. A fetch under
 * way gets these events put into its answer (fetchQueue).
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
    for (const meanwhile of queueFetches.get(client) ?? []) meanwhile.push(...jobs.values());
    const outdated = client.getQueryState(queueKey)?.isInvalidated === true;
    client.setQueryData<JobWindow>(queueKey, (current) => current && withJobs(current, jobs.values()));
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

/** Takes away the notices `over` says are over, leaving the state as it is (and the screens unrendered) when none is. */
export function dropNotices(client: QueryClient, over: (notice: NoticeItem) => boolean): void {
  const current = client.getQueryData<NoticesState>(noticesKey);
  if (current?.items.some(over)) client.setQueryData<NoticesState>(noticesKey, { ...current, items: current.items.filter((n) => !over(n)) });
}

/**
 * A notice about one file is over once a job for that same file is found: the refused file put back in the queue (in
 * this window or another one, the desktop window or a browser tab: the put-back queues it as a new job, under a new
 * id, where it was found), or a fixed copy saved into the folder. It goes again then, with notices of its own. Only a
 * job that is found (not one moving on): a new version queued before the refusal was said (the notice says so itself)
 * leaves it. Called for each event as it comes, in order with the notices, so it never takes away a later notice. The
 * core drops its own copy by the same rule and says so (`noticesGone`); this takes it away without waiting for that.
 */
function dropNoticesFoundAgain(client: QueryClient, job: JobView): void {
  if (job.state !== 'found' || job.finished) return;
  dropNotices(client, (notice) => notice.jobId !== undefined && notice.jobId !== job.id && notice.path === job.path);
}

/** The core's notice events this window has had lately, in order, for the list's answer to catch up with (fromList). */
const noticeLogs = new WeakMap<QueryClient, NoticeChange[]>();
const NOTICE_LOG = 1000;
const noticeLogOf = (client: QueryClient): NoticeChange[] => {
  let log = noticeLogs.get(client);
  if (!log) noticeLogs.set(client, (log = []));
  return log;
};

/** Applies one notice event to the cached list; asks for the list again when it cannot (applyNoticeChange). */
function applyNoticeEvent(client: QueryClient, change: NoticeChange): void {
  if (change.kind === 'gone' || change.notice.id !== undefined) {
    const log = noticeLogOf(client);
    log.push(change);
    if (log.length > NOTICE_LOG) log.splice(0, log.length - NOTICE_LOG);
  }
  const current = client.getQueryData<NoticesState>(noticesKey) ?? EMPTY_NOTICES;
  const { state, outOfStep } = applyNoticeChange(current, change);
  if (state !== current) client.setQueryData(noticesKey, state);
  if (outOfStep) void client.invalidateQueries({ queryKey: noticesKey });
}

/**
 * The notices as the core keeps them (notices.list, asked for when the app opens and again whenever the event stream
 * comes back: main.tsx refetches everything then), with the events that came meanwhile applied.
 */
export function useNotices(): NoticesState {
  const bridge = useBridge();
  const client = useQueryClient();
  const { data } = useQuery<NoticesState>({
    queryKey: noticesKey,
    // Fresh once the core's list is in; a notice of the shell's own, cached before it, does not stand for it.
    staleTime: (query) => (query.state.data?.run === undefined ? 0 : Infinity),
    queryFn: async () => {
      const list = await bridge.call('notices.list', {});
      const { state, outOfStep } = fromList(list, client.getQueryData(noticesKey), noticeLogOf(client));
      // Events this window never had: asked for again once this answer is in.
      if (outOfStep) setTimeout(() => void client.invalidateQueries({ queryKey: noticesKey }), 0);
      return state;
    },
  });
  return data ?? EMPTY_NOTICES;
}

/**
 * Keeps the cache current from the core's events, for the whole app: the queue and progress update in place, finished
 * files and batches refresh the History windows (at most every two seconds), folder and local-server states replace
 * their cached answers, and a folder state (also said when the service changes) refetches the queue, once the job
 * events before it are applied (applyLiveEvents); notices are said, and taken away when the core no longer keeps them
 * (in every window: one dismissed in another window goes here too); once the folder is watched again, the notices
 * that said the watch stopped go, and once a file is found again, the notices about it (dropNoticesFoundAgain).
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
    const offs = [
      bridge.on('job', (job) => { dropNoticesFoundAgain(client, job); batcher.push({ kind: 'job', job }); }),
      bridge.on('result', (job) => { batcher.push({ kind: 'job', job }); refreshHistory(); }),
      bridge.on('progress', (progress) => batcher.push({ kind: 'progress', progress })),
      bridge.on('batch', () => { void client.invalidateQueries({ queryKey: ['batches.list'] }); refreshHistory(); }),
      bridge.on('folder', (state) => {
        putAnswer(client, 'watch.state', {}, state);
        // A notice that the watch stopped is over once it watches again.
        if (state.state === 'watching') dropNotices(client, (notice) => notice.until === 'watching');
        // Said whenever the service uploads go to changes too: which queued files wait for another one changes with it.
        // Through the batcher, so the fetch comes after the job events that came before this one.
        batcher.push({ kind: 'refetchQueue' });
      }),
      bridge.on('localServer', (state) => putAnswer(client, 'localServer.state', {}, state)),
      bridge.on('notice', (notice) => applyNoticeEvent(client, { kind: 'notice', notice })),
      bridge.on('noticesGone', (gone) => applyNoticeEvent(client, { kind: 'gone', gone })),
    ];
    return () => {
      batcher.close();
      if (historyTimer) clearTimeout(historyTimer);
      for (const off of offs) off();
    };
  }, [bridge, client, schedule]);
}
