import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '../core/queue';
import type { SessionEvents } from '../core/session';
import { createLogger } from '../lib/logger';
import { createTypedEmitter } from '../lib/typed-emitter';
import { attachOutput, describeResult } from './watch-output';

const sink = () => {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
};

const job = (over: Partial<Job>): Job => ({
  id: 1, path: '/f/census.csv', name: 'census.csv', size: 10, mtimeMs: 1, state: 'uploaded', createdAt: 0, stateChangedAt: 0,
  attempts: 0, warnings: [], warningCount: 0, foundDay: '2026-11-22', mismatches: 0, ...over,
});

describe('watch output', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('a log line clears the progress bar first, so it never lands in the middle of the bar', () => {
    const events = createTypedEmitter<SessionEvents>(() => undefined);
    const out = sink();
    const err = sink();
    const detach = attachOutput({ on: events.on }, { json: false, tty: true }, out.stream, err.stream, () => undefined);
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(`${err.text().length}:${String(chunk)}`);
      return true;
    });
    events.emit('progress', { id: 1, phase: 'uploading', bytes: 5, total: 10 });
    const before = err.text().length;
    createLogger('test').warn('the share hiccupped');
    detach();
    // The bar's line was cleared (written to the bar's stream) before the log line went out.
    expect(err.text().slice(before).startsWith('\r\x1b[2K')).toBe(true);
    expect(written).toHaveLength(1);
    expect(Number(written[0]!.split(':')[0])).toBeGreaterThan(before);
  });

  it('does not say again an error or notice the log has just written, and says those it has not', async () => {
    const events = createTypedEmitter<SessionEvents>(() => undefined);
    const out = sink();
    const err = sink();
    const detach = attachOutput({ on: events.on }, { json: false, tty: false }, out.stream, err.stream, () => undefined);
    const logged: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
    vi.stubEnv('PAYROLL_LOG_LEVEL', 'info');
    const logger = createLogger('test');
    // As the session reports most problems: a log line, then the event with the same words.
    logger.error('census.csv: the journal is full');
    events.emit('error', new Error('census.csv: the journal is full'));
    logger.info('resuming 2 uploads from the last run');
    events.emit('warning', 'resuming 2 uploads from the last run');
    // One the log never wrote, and one of the same words in a later turn: said.
    events.emit('error', new Error('the claim folder cannot be used'));
    await new Promise((resolve) => setImmediate(resolve));
    events.emit('error', new Error('census.csv: the journal is full'));
    detach();
    expect(logged.join('')).toMatch(/ERROR \[test\] census\.csv: the journal is full\n.*INFO \[test\] resuming 2 uploads/s);
    expect(err.text()).toBe('warning: the claim folder cannot be used\nwarning: census.csv: the journal is full\n');
  });

  it('says each outcome once, with the row warnings and their line numbers', () => {
    const events = createTypedEmitter<SessionEvents>(() => undefined);
    const out = sink();
    const err = sink();
    const detach = attachOutput({ on: events.on }, { json: false, tty: false }, out.stream, err.stream, () => undefined);
    const done = job({
      archivedAt: Date.now(), archivedPath: '/f/uploaded/census.csv', importId: 'imp-1', warningCount: 1,
      warnings: [{ line: 7, message: 'hireDate: not a real date' }], warningsPath: '/f/uploaded/census.warnings.txt',
    });
    events.emit('result', done);
    events.emit('result', done);
    detach();
    expect(out.text().match(/uploaded\s+census\.csv \(import imp-1\)/g)).toHaveLength(1);
    expect(out.text()).toContain('line 7: hireDate: not a real date');
    expect(out.text()).toContain('/f/uploaded/census.warnings.txt');
    expect(describeResult(job({ state: 'rejected', lastError: 'the file is empty' }))).toMatch(/rejected\s+census\.csv: the file is empty/);
  });

  it('never prints a control character of a reason: a lone CR would move the cursor back over the line', () => {
    const line = describeResult(job({ state: 'rejected', lastError: 'unknown column(s): employeeStatus\rDoe' }));
    expect(line).toMatch(/rejected\s+census\.csv: unknown column\(s\): employeeStatus\\u000dDoe/);
    expect(line).not.toContain('\r');
  });

  it('says when the watched folder goes and comes back, not its state at the start', () => {
    const events = createTypedEmitter<SessionEvents>(() => undefined);
    const out = sink();
    const err = sink();
    const detach = attachOutput({ on: events.on }, { json: false, tty: false }, out.stream, err.stream, () => undefined);
    events.emit('folder', { folder: '/f', state: 'missing' });
    events.emit('folder', { folder: '/f', state: 'watching' });
    events.emit('folder', { folder: '/f', state: 'missing' });
    events.emit('folder', { folder: '/f', state: 'watching' });
    detach();
    expect(err.text()).toBe('the folder /f is back; watching again\nthe folder /f is gone; waiting for it to come back\nthe folder /f is back; watching again\n');
  });
});
