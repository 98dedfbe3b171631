import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BridgeEventMessage } from '../../../shared/bridge';
import { createTypedEmitter } from '../../lib/typed-emitter';
import { createNoticeBoard } from '../notices';
import type { Job } from '../queue';
import { UploadsStoppedError, type SessionEvents } from '../session';
import { relayEvents } from './bridge-events';

const job = (id: number, state: Job['state'], extra: Partial<Job> = {}): Job => ({
  id, path: `/w/f${id}.csv`, name: `f${id}.csv`, size: 1000, mtimeMs: 1, state, createdAt: 1, stateChangedAt: 1, attempts: 0,
  warnings: [], warningCount: 0, foundDay: '2026-01-01', mismatches: 0, ...extra,
});

describe('event relay', () => {
  let clock = 0;
  let sent: BridgeEventMessage[];
  let emitter: ReturnType<typeof createTypedEmitter<SessionEvents>>;
  let stop: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
    sent = [];
    emitter = createTypedEmitter<SessionEvents>((error) => {
      throw error;
    });
    const notices = createNoticeBoard({ on: emitter.on, onListenerError: (error) => { throw error; }, now: () => clock });
    stop = relayEvents({ on: emitter.on, notices }, (m) => sent.push(m), { progressIntervalMs: 100, now: () => clock });
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  const advance = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };

  it('sends at most one progress per job per interval, the newest, with the rate', () => {
    for (let i = 1; i <= 50; i += 1) {
      emitter.emit('progress', { id: 1, phase: 'uploading', bytes: i * 10, total: 500 });
      emitter.emit('progress', { id: 2, phase: 'hashing', bytes: i, total: 50 });
      advance(10);
    }
    advance(200);
    const perJob = (id: number) => sent.filter((m) => m.event === 'progress' && m.payload.id === id);
    // 500 ms of reports every 10 ms: the first at once, then one per 100 ms.
    expect(perJob(1).length).toBeLessThanOrEqual(6);
    expect(perJob(1).length).toBeGreaterThanOrEqual(5);
    expect(perJob(1).at(-1)?.payload).toMatchObject({ bytes: 500, total: 500 });
    expect(perJob(2).at(-1)?.payload).toMatchObject({ bytes: 50 });
    const rates = perJob(1).slice(1).map((m) => (m.payload as { bytesPerSecond?: number }).bytesPerSecond);
    expect(rates.every((r) => r === 1000)).toBe(true);
  });

  it('never sends a job\'s progress after its next state change', () => {
    emitter.emit('progress', { id: 1, phase: 'uploading', bytes: 10, total: 100 });
    advance(10);
    emitter.emit('progress', { id: 1, phase: 'uploading', bytes: 100, total: 100 });
    emitter.emit('job', job(1, 'uploaded'));
    advance(500);
    expect(sent.map((m) => m.event)).toEqual(['progress', 'progress', 'job']);
    expect(sent[1]?.payload).toMatchObject({ bytes: 100 });
  });

  it('maps jobs, results and failures to views and notices, numbered by the notice board', () => {
    emitter.emit('result', job(3, 'rejected', { lastError: 'missing column cpf', archivedAt: 5, archivedPath: '/w/rejected/f3.csv' }));
    emitter.emit('error', new Error('the folder cannot be listed'));
    emitter.emit('warning', 'the keychain is locked');
    emitter.emit('error', new UploadsStoppedError('Uploads stopped: no base URL'));
    emitter.emit('ignored', { path: '/w/payroll.xlsx', name: 'payroll.xlsx' });
    const numbered = { run: expect.any(String) as unknown, at: 0 };
    expect(sent).toEqual([
      // The board hears of the refusal first (it listens from the session's start), so its notice goes first.
      // Where the file was found: a job found there again (put back, from any window) ends the notice.
      { event: 'notice', payload: { level: 'warning', message: 'f3.csv was refused: missing column cpf', jobId: 3, path: '/w/f3.csv', id: 1, ...numbered } },
      { event: 'result', payload: expect.objectContaining({ id: 3, outcome: 'rejected', finished: true, finishedAt: 5 }) as unknown },
      { event: 'notice', payload: { level: 'error', message: 'the folder cannot be listed', id: 2, ...numbered } },
      { event: 'notice', payload: { level: 'warning', message: 'the keychain is locked', id: 3, ...numbered } },
      // Over once the folder is watched again: the board drops it then.
      { event: 'notice', payload: { level: 'error', message: 'Uploads stopped: no base URL', until: 'watching', id: 4, ...numbered } },
      {
        event: 'notice',
        payload: { level: 'info', message: expect.stringMatching(/^payroll\.xlsx is not a CSV export, so it is not uploaded; it stays in the watched folder/) as unknown, id: 5, ...numbered },
      },
    ]);
    sent = [];
    emitter.emit('folder', { folder: '/w', state: 'watching' });
    expect(sent).toEqual([
      { event: 'noticesGone', payload: { run: expect.any(String) as unknown, version: 6, ids: [4], leftOut: 0 } },
      { event: 'folder', payload: { folder: '/w', state: 'watching' } },
    ]);
  });

  it('names a claimed file\'s refusal by where the clerk put it, as the job events name the file put back', () => {
    emitter.emit('result', job(4, 'rejected', {
      path: '/w/.processing/me/f4.csv', claimedFrom: '/w/f4.csv', lastError: 'empty file', archivedAt: 5, archivedPath: '/w/rejected/f4.csv',
    }));
    expect(sent[0]).toMatchObject({ event: 'notice', payload: { level: 'warning', message: 'f4.csv was refused: empty file', jobId: 4, path: '/w/f4.csv' } });
  });

  it('stops relaying when unsubscribed', () => {
    stop();
    emitter.emit('job', job(1, 'found'));
    expect(sent).toEqual([]);
  });
});
