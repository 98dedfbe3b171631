/**
 * The session's events as bridge events. Progress is coalesced per job: the first report goes at once, later ones at
 * most one per interval (the newest wins), so a folder of 1,000 files never floods the screens. A job's pending
 * progress is sent before its next state change, never after it. Notices are the session's notice board's (kept until
 * dismissed or over, see electron/core/notices): each one said, and those gone.
 */
import type { BridgeEventMessage, JobProgressView } from '../../../shared/bridge';
import type { Job, JobProgress } from '../queue';
import type { Session } from '../session';
import { toBatchView, toJobView } from './views';

export const PROGRESS_INTERVAL_MS = 100;

type Sample = { progress: JobProgress; at: number };
/** Per job: the last sample sent (for the rate), the newest one waiting, and its timer. */
type Pending = { lastSent?: Sample; sentAt: number; waiting?: Sample; timer?: NodeJS.Timeout };

export type EventRelayOptions = { progressIntervalMs?: number; now?: () => number };

/** Sends the session's events through `send` until the returned function is called. */
export function relayEvents(session: Pick<Session, 'on' | 'notices'>, send: (message: BridgeEventMessage) => void, options: EventRelayOptions = {}): () => void {
  const interval = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const jobs = new Map<number, Pending>();

  const emitProgress = (entry: Pending, sample: Sample): void => {
    const { progress: p, at } = sample;
    const last = entry.lastSent;
    // Bytes per second between the samples' own arrival times, so a delayed send does not skew it.
    const rate = last && last.progress.phase === p.phase && at > last.at && p.bytes >= last.progress.bytes
      ? Math.round(((p.bytes - last.progress.bytes) * 1000) / (at - last.at))
      : undefined;
    entry.waiting = undefined;
    entry.lastSent = sample;
    entry.sentAt = now();
    const view: JobProgressView = { id: p.id, phase: p.phase, bytes: p.bytes, total: p.total, ...(rate !== undefined ? { bytesPerSecond: rate } : {}) };
    send({ event: 'progress', payload: view });
  };
  const flush = (id: number): void => {
    const entry = jobs.get(id);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.waiting) emitProgress(entry, entry.waiting);
  };

  const onProgress = (p: JobProgress): void => {
    const at = now();
    let entry = jobs.get(p.id);
    if (!entry) {
      entry = { sentAt: -Infinity };
      jobs.set(p.id, entry);
    }
    const elapsed = at - entry.sentAt;
    if (elapsed >= interval) {
      emitProgress(entry, { progress: p, at });
      return;
    }
    entry.waiting = { progress: p, at };
    entry.timer ??= setTimeout(() => flush(p.id), interval - elapsed);
  };

  const onJob = (job: Job): void => {
    flush(job.id);
    // Progress only happens while reading or uploading; once past them the entry is no longer needed.
    if (job.state !== 'hashing' && job.state !== 'uploading') jobs.delete(job.id);
    send({ event: 'job', payload: toJobView(job) });
  };
  const onResult = (job: Job): void => {
    flush(job.id);
    jobs.delete(job.id);
    send({ event: 'result', payload: toJobView(job) });
  };

  const unsubscribe = [
    session.on('job', onJob),
    session.on('progress', onProgress),
    session.on('result', onResult),
    session.on('batch', (batch) => send({ event: 'batch', payload: toBatchView(batch) })),
    session.on('folder', (folder) => send({ event: 'folder', payload: folder })),
    session.on('localServer', (state) => send({ event: 'localServer', payload: state })),
    session.notices.on('notice', (notice) => send({ event: 'notice', payload: notice })),
    session.notices.on('gone', (gone) => send({ event: 'noticesGone', payload: gone })),
  ];
  return () => {
    for (const off of unsubscribe) off();
    for (const entry of jobs.values()) if (entry.timer) clearTimeout(entry.timer);
    jobs.clear();
  };
}
