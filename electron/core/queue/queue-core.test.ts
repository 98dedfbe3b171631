import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/local-server';
import { createLogger } from '../../lib/logger';
import { DEFAULT_RETRY } from './backoff';
import type { Job } from './job-types';
import { openJournal, type Journal } from './journal';
import type { QueueApi } from './queue-api';
import { createCoreTransitions, type QueueCore } from './queue-core';

let dir: string;
let journal: Journal;
let core: QueueCore;
let events: { state: string; committed: string | undefined }[];
beforeEach(async () => {
  dir = await tempDir('queue-core-');
  journal = openJournal(dir);
  events = [];
  core = createCoreTransitions({
    journal, api: {} as QueueApi, settings: () => { throw new Error('not used'); }, logger: createLogger('test', () => undefined),
    now: () => 1, retry: DEFAULT_RETRY, random: () => 0.5, signal: new AbortController().signal,
    emit: (event, payload) => {
      if (event !== 'job') return;
      const job = payload as Job;
      // What a second connection sees at the moment of the event: the state must already be on disk.
      const other = openJournal(dir);
      try {
        events.push({ state: job.state, committed: other.job(job.id)?.state });
      } finally {
        other.close();
      }
    },
  });
});
afterEach(async () => {
  journal.close();
  await rm(dir, { recursive: true, force: true });
});

describe('core.atomically', () => {
  it('announces the writes only once they are committed, and not at all when they are rolled back', () => {
    const a = journal.insertJob({ path: '/w/a.csv', name: 'a.csv', size: 1, mtimeMs: 1 }, 1, '2026-01-01');
    const b = journal.insertJob({ path: '/w/b.csv', name: 'b.csv', size: 1, mtimeMs: 1 }, 1, '2026-01-01');
    core.atomically(() => {
      core.write(a.id, { state: 'uploading' });
      core.write(b.id, { state: 'uploading' });
    });
    expect(events).toEqual([{ state: 'uploading', committed: 'uploading' }, { state: 'uploading', committed: 'uploading' }]);

    events = [];
    expect(() => core.atomically(() => {
      core.write(a.id, { state: 'uploaded' });
      throw new Error('stop');
    })).toThrow('stop');
    expect(events).toEqual([]);
    expect(core.journal.job(a.id)?.state).toBe('uploading');
    // Outside a transaction a write is announced at once, committed.
    core.write(a.id, { state: 'uploaded' });
    expect(events).toEqual([{ state: 'uploaded', committed: 'uploaded' }]);
  });
});

describe('an upload address', () => {
  it('is forgotten whatever outcome its job reaches: uploaded, refused after its upload began, or a duplicate', () => {
    const url = 'http://127.0.0.1:1/uploads/x?expires=9&signature=secret-signature';
    for (const outcome of ['uploaded', 'rejected', 'duplicate'] as const) {
      const job = journal.insertJob({ path: `/w/${outcome}.csv`, name: `${outcome}.csv`, size: 1, mtimeMs: 1 }, 1, '2026-01-01');
      core.write(job.id, { state: 'uploading', grantUrl: url, grantExpiresAt: 10, grantIssuedAt: 1 });
      expect(core.journal.job(job.id)?.grantUrl).toBe(url);
      const ended = outcome === 'rejected' ? core.reject(core.journal.job(job.id)!, 'the service refused the upload') : core.write(job.id, { state: outcome });
      expect(ended.grantUrl, outcome).toBeUndefined();
      expect(core.journal.job(job.id)?.grantUrl, outcome).toBeUndefined();
    }
  });
});
