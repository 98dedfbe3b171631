/**
 * Which events become OS notifications, and how a burst is folded: a file refused, an upload that failed (and will
 * be retried), an error notice (a failed delivery, an engine failure). A thousand refused files make one
 * notification, not a thousand: everything within `windowMs` of the first is summed up.
 */
import type { JobView, Notice } from '../../../shared/bridge';

export type OsNotification = { title: string; body: string };

export type NoticeBatcherOptions = {
  show(notification: OsNotification): void;
  windowMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
};

export type NoticeBatcher = {
  job(job: JobView): void;
  result(job: JobView): void;
  notice(notice: Notice): void;
  /** Shows what is pending now (on quit). */
  flush(): void;
};

type Item = { kind: 'refused' | 'failed' | 'error'; text: string };

const TITLES = { refused: 'File refused', failed: 'Upload failed, will retry', error: 'Payroll Uploader' } as const;
const MANY = { refused: 'files refused', failed: 'uploads failed and will be retried', error: 'errors' } as const;
// Job ids already notified, so a notice about the same job does not notify twice; bounded.
const REMEMBERED = 10_000;

export function createNoticeBatcher(options: NoticeBatcherOptions): NoticeBatcher {
  const windowMs = options.windowMs ?? 3000;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms).unref());
  const notified = new Set<number>();
  let pending: Item[] = [];
  let timerSet = false;

  const remember = (id: number): boolean => {
    if (notified.has(id)) return false;
    notified.add(id);
    if (notified.size > REMEMBERED) notified.delete(notified.values().next().value as number);
    return true;
  };

  const flush = (): void => {
    timerSet = false;
    const items = pending;
    pending = [];
    if (items.length === 0) return;
    const kinds = [...new Set(items.map((item) => item.kind))];
    const only = items[0];
    if (items.length === 1 && only) {
      options.show({ title: TITLES[only.kind], body: only.text });
      return;
    }
    const parts = kinds.map((kind) => `${items.filter((item) => item.kind === kind).length} ${MANY[kind]}`);
    options.show({ title: 'Payroll Uploader needs attention', body: `${parts.join(', ')}. Open the app for details.` });
  };

  const add = (item: Item): void => {
    pending.push(item);
    if (!timerSet) {
      timerSet = true;
      setTimer(flush, windowMs);
    }
  };

  return {
    job(job) {
      // The first failed try of a file: later retries of the same file stay quiet.
      if (job.state === 'waiting' && job.lastError !== undefined && remember(-job.id)) {
        add({ kind: 'failed', text: `${job.name}: ${job.lastError}` });
      }
    },
    result(job) {
      if (job.outcome === 'rejected' && remember(job.id)) {
        add({ kind: 'refused', text: `${job.name}: ${job.lastError ?? 'see its .error.txt in the rejected folder'}` });
      }
    },
    notice(notice) {
      if (notice.level !== 'error') return;
      if (notice.jobId !== undefined && !remember(notice.jobId)) return;
      add({ kind: 'error', text: notice.message });
    },
    flush,
  };
}
