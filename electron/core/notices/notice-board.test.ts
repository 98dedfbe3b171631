import { beforeEach, describe, expect, it } from 'vitest';
import type { NoticesGone } from '../../../shared/bridge';
import { createTypedEmitter } from '../../lib/typed-emitter';
import type { Job } from '../queue';
import type { SessionEvents } from '../session';
import { UploadsStoppedError } from '../session';
import { LastingError } from './lasting-error';
import { createNoticeBoard, type NoticeBoard } from './notice-board';

const job = (id: number, state: Job['state'], extra: Partial<Job> = {}): Job => ({
  id, path: `/w/f${id}.csv`, name: `f${id}.csv`, size: 1000, mtimeMs: 1, state, createdAt: 1, stateChangedAt: 1, attempts: 0,
  warnings: [], warningCount: 0, foundDay: '2026-01-01', mismatches: 0, ...extra,
});
const refused = (id: number, extra: Partial<Job> = {}) => job(id, 'rejected', { lastError: 'missing column cpf', archivedAt: 5, ...extra });

describe('notice board', () => {
  let session: ReturnType<typeof createTypedEmitter<SessionEvents>>;
  let board: NoticeBoard;
  let changes: { kind: string; version: number; ids?: number[]; leftOut?: number }[];

  beforeEach(() => {
    session = createTypedEmitter<SessionEvents>((error) => {
      throw error;
    });
    board = createNoticeBoard({ on: session.on, onListenerError: (error) => { throw error; }, keep: 3, now: () => 42 });
    changes = [];
    board.on('notice', (n) => changes.push({ kind: 'notice', version: n.id }));
    board.on('gone', (g: NoticesGone) => changes.push({ kind: 'gone', version: g.version, ids: g.ids, leftOut: g.leftOut }));
  });
  const messages = () => board.list().items.map((n) => n.message);

  it('keeps what was said, newest first, numbered one change after the other, with one event per change', () => {
    session.emit('result', refused(7));
    session.emit('result', job(8, 'uploaded', { archivedAt: 5 }));
    session.emit('warning', 'resuming 2 uploads from the last run');
    const list = board.list();
    expect(list).toMatchObject({ version: 2, leftOut: 0 });
    expect(list.items).toEqual([
      { level: 'warning', message: 'resuming 2 uploads from the last run', id: 2, run: list.run, at: 42 },
      { level: 'warning', message: 'f7.csv was refused: missing column cpf', jobId: 7, path: '/w/f7.csv', id: 1, run: list.run, at: 42 },
    ]);
    expect(changes.map((c) => c.version)).toEqual([1, 2]);
  });

  it('dismisses one, or all up to what the clerk saw, in its own run only', () => {
    session.emit('warning', 'a');
    session.emit('warning', 'b');
    const { run } = board.list();
    expect(board.dismiss('another-run', 1)).toBe(0);
    expect(board.dismiss(run, 1)).toBe(1);
    expect(board.dismiss(run, 1)).toBe(0);
    session.emit('warning', 'c');
    expect(board.dismissAll(run, 3)).toBe(1);
    expect(messages()).toEqual(['c']);
    expect(changes).toEqual([
      { kind: 'notice', version: 1 }, { kind: 'notice', version: 2 }, { kind: 'gone', version: 3, ids: [1], leftOut: 0 },
      { kind: 'notice', version: 4 }, { kind: 'gone', version: 5, ids: [2], leftOut: 0 },
    ]);
  });

  it('keeps the newest, counts those left out, and forgets the count once all are dismissed', () => {
    for (const word of ['a', 'b', 'c', 'd', 'e']) session.emit('warning', word);
    expect(messages()).toEqual(['e', 'd', 'c']);
    expect(board.list().leftOut).toBe(2);
    expect(changes.filter((c) => c.kind === 'gone')).toEqual([
      { kind: 'gone', version: 5, ids: [1], leftOut: 1 }, { kind: 'gone', version: 7, ids: [2], leftOut: 2 },
    ]);
    const { run, version } = board.list();
    expect(board.dismissAll(run, version)).toBe(3);
    expect(board.list()).toMatchObject({ items: [], leftOut: 0 });
    // Nothing kept, only the count: dismissing all still forgets it, and says so.
    session.emit('warning', 'f');
    session.emit('warning', 'g');
    session.emit('warning', 'h');
    session.emit('warning', 'i');
    const now = board.list();
    expect(board.dismissAll(now.run, now.version)).toBe(3);
    expect(changes.at(-1)).toMatchObject({ kind: 'gone', leftOut: 0 });
  });

  it('replaces a notice said again word for word rather than pile it up', () => {
    session.emit('error', new Error('the folder cannot be listed'));
    session.emit('warning', 'other');
    session.emit('error', new Error('the folder cannot be listed'));
    expect(messages()).toEqual(['the folder cannot be listed', 'other']);
    expect(board.list().items[0]?.id).toBe(4);
  });

  it('drops a refusal once a job is found again where the file was, or once it is put back, and only then', () => {
    session.emit('job', job(20, 'found', { path: '/w/payroll.csv' }));
    // A new version found before the refusal of the earlier one was said: its moving on does not end the notice.
    session.emit('result', refused(19, { path: '/w/payroll.csv', name: 'payroll.csv' }));
    session.emit('job', job(20, 'hashing', { path: '/w/payroll.csv' }));
    session.emit('result', refused(7, { path: '/w/.processing/me/f7.csv', claimedFrom: '/w/f7.csv' }));
    session.emit('result', refused(8));
    expect(messages()).toHaveLength(3);
    // f7.csv put back: queued again as a new job where the clerk had put it.
    session.emit('job', job(30, 'found', { path: '/w/f7.csv' }));
    expect(messages()).toEqual(['f8.csv was refused: missing column cpf', 'payroll.csv was refused: missing column cpf']);
    // f8.csv went back under another name: the put-back itself ends its notice.
    board.dropAbout(8);
    expect(messages()).toEqual(['payroll.csv was refused: missing column cpf']);
  });

  it('drops the notice that uploads stopped once the folder is watched again', () => {
    session.emit('error', new UploadsStoppedError('Uploads stopped: no base URL'));
    session.emit('ignored', { path: '/w/payroll.xlsx', name: 'payroll.xlsx' });
    expect(board.list().items.map((n) => n.until)).toEqual([undefined, 'watching']);
    session.emit('folder', { folder: '/w', state: 'paused' });
    expect(messages()).toHaveLength(2);
    session.emit('folder', { folder: '/w', state: 'watching' });
    expect(messages()).toEqual([expect.stringMatching(/^payroll\.xlsx is not a CSV export/)]);
  });

  it('drops the notice of a lasting problem once its end is said, and only that one', () => {
    session.emit('error', new LastingError('new files cannot be taken up for now: the disk is full', 'journal-written'));
    session.emit('error', new LastingError('the client is not allowed to upload files', 'scope-given'));
    session.emit('error', new Error('f9.csv: something else'));
    expect(board.list().items.map((n) => n.until)).toEqual([undefined, 'scope-given', 'journal-written']);
    session.emit('over', 'journal-written');
    expect(messages()).toEqual(['f9.csv: something else', 'the client is not allowed to upload files']);
    expect(changes.at(-1)).toMatchObject({ kind: 'gone', ids: [1] });
    const version = board.list().version;
    session.emit('over', 'queue-runs');
    expect(board.list().version).toBe(version);
    session.emit('over', 'scope-given');
    expect(messages()).toEqual(['f9.csv: something else']);
  });
});
