import { describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/bridge';
import { createNoticeBatcher, type OsNotification } from './notice-batcher';

const job = (id: number, over: Partial<JobView> = {}): JobView => ({
  id, name: `receipt-${id}.csv`, path: `/in/receipt-${id}.csv`, size: 10, state: 'rejected', outcome: 'rejected', finished: true,
  foundAt: 1, foundDay: '2026-03-31', stateChangedAt: 1, attempts: 0, warningCount: 0, ...over,
});

function harness() {
  const shown: OsNotification[] = [];
  const timers: Array<() => void> = [];
  const batcher = createNoticeBatcher({ show: (n) => shown.push(n), setTimer: (fn) => timers.push(fn) });
  const tick = () => timers.splice(0).forEach((fn) => fn());
  return { shown, batcher, tick };
}

describe('OS notifications', () => {
  it('tells of one refused file by name and reason', () => {
    const { shown, batcher, tick } = harness();
    batcher.result(job(1, { lastError: 'line 3: cpf is not valid' }));
    batcher.result(job(2, { state: 'uploaded', outcome: 'uploaded' }));
    tick();
    expect(shown).toEqual([{ title: 'File refused', body: 'receipt-1.csv: line 3: cpf is not valid' }]);
  });

  it('folds a burst into one notification', () => {
    const { shown, batcher, tick } = harness();
    for (let id = 1; id <= 1000; id++) batcher.result(job(id));
    batcher.job(job(2000, { state: 'waiting', outcome: undefined, finished: false, lastError: 'ECONNREFUSED' }));
    tick();
    expect(shown).toEqual([{ title: 'Payroll Uploader needs attention', body: '1000 files refused, 1 uploads failed and will be retried. Open the app for details.' }]);
  });

  it('tells of a failed upload once, not on every retry, and of error notices such as a failed delivery', () => {
    const { shown, batcher, tick } = harness();
    const waiting = job(5, { state: 'waiting', outcome: undefined, finished: false, lastError: 'HTTP 503' });
    batcher.job(waiting);
    tick();
    batcher.job({ ...waiting, attempts: 2 });
    batcher.notice({ level: 'warning', message: 'slow' });
    tick();
    batcher.notice({ level: 'error', message: 'Webhook delivery 12 failed after 5 retries' });
    tick();
    expect(shown).toEqual([
      { title: 'Upload failed, will retry', body: 'receipt-5.csv: HTTP 503' },
      { title: 'Payroll Uploader', body: 'Webhook delivery 12 failed after 5 retries' },
    ]);
  });

  it('does not tell twice of a file the engine also sent a notice about', () => {
    const { shown, batcher, tick } = harness();
    batcher.result(job(7));
    batcher.notice({ level: 'error', message: 'receipt-7.csv was refused', jobId: 7 });
    tick();
    expect(shown).toHaveLength(1);
  });
});
