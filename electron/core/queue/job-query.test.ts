import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobState } from './job-types';
import { openJobQuery, type JobQuery, type JobWindowQuery } from './job-query';
import { openJournal, type Journal } from './journal';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 12);
const day = (n: number) => new Date(T0 + n * DAY).toISOString().slice(0, 10);
const base: JobWindowQuery = { sort: { by: 'foundAt', dir: 'desc' }, offset: 0, limit: 100 };

describe('job queries', () => {
  let dir: string;
  let journal: Journal;
  let query: JobQuery;
  // Job i: found on day i % 10, census (type 1) when even, outcome by i % 3, names with their number.
  const outcomeOf = (i: number): JobState => (['uploaded', 'rejected', 'duplicate'] as const)[i % 3] as JobState;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'job-query-'));
    journal = openJournal(dir);
    journal.transaction(() => {
      for (let i = 0; i < 300; i += 1) {
        const name = `${i % 2 === 0 ? 'Census' : 'receipts'}_${String(i).padStart(4, '0')}${i === 7 ? '_50%_off"' : ''}.csv`;
        const job = journal.insertJob({ path: `/w/${name}`, name, size: 1000 + (i % 17), mtimeMs: i }, T0 + i * 1000, day(i % 10));
        journal.update(job.id, { state: i >= 290 ? 'uploading' : outcomeOf(i), fileType: i % 2 === 0 ? '1' : '2', ...(i < 290 ? { archivedAt: T0 } : {}) }, T0);
      }
    });
    query = openJobQuery(journal.path);
  });

  afterEach(async () => {
    query.close();
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fills every field of a listed job from its own column', () => {
    const job = journal.update(300, {
      state: 'waiting', resumeState: 'uploading', nextAttemptAt: T0 + 5, attempts: 2, lastError: 'the service did not answer',
      warningCount: 3, md5: '0123456789abcdef0123456789abcdef', referenceDate: '2026-01-31', importId: 'imp-300', uploadedAt: T0 + 6,
      archivedPath: '/w/uploaded/x.csv', archivedAt: T0 + 7, claimedFrom: '/w/x.csv',
    }, T0 + 8);
    expect(query.window({ ...base, limit: 1 }).items[0]).toEqual({
      id: 300, path: job.path, name: job.name, size: job.size, state: 'waiting', resumeState: 'uploading', createdAt: job.createdAt,
      stateChangedAt: T0 + 8, nextAttemptAt: T0 + 5, attempts: 2, lastError: 'the service did not answer', warningCount: 3,
      md5: '0123456789abcdef0123456789abcdef', fileType: '2', referenceDate: '2026-01-31', foundDay: job.foundDay, importId: 'imp-300',
      uploadedAt: T0 + 6, archivedPath: '/w/uploaded/x.csv', archivedAt: T0 + 7, claimedFrom: '/w/x.csv',
    });
    // Empty columns leave their fields out.
    expect(Object.keys(query.window({ ...base, offset: 1, limit: 1 }).items[0] ?? {})).not.toContain('lastError');
  });

  it('answers a window and the total of everything', () => {
    const window = query.window({ ...base, limit: 10 });
    expect(window.total).toBe(300);
    expect(window.items.map((j) => j.id)).toEqual([300, 299, 298, 297, 296, 295, 294, 293, 292, 291]);
    const next = query.window({ ...base, limit: 10, offset: 10 });
    expect(next.items[0]?.id).toBe(290);
  });

  it('filters by state, file type, found days, finished and text, together', () => {
    const rejected = query.window({ ...base, states: ['rejected'], limit: 500 });
    expect(rejected.total).toBe(Array.from({ length: 290 }, (_, i) => i).filter((i) => i % 3 === 1).length);
    expect(rejected.items.every((j) => j.state === 'rejected')).toBe(true);

    const census = query.window({ ...base, fileTypes: ['1'], limit: 500 });
    expect(census.total).toBe(150);

    // Job i was found at T0 + i s.
    const found = query.window({ ...base, foundSince: T0 + 100_000, foundBefore: T0 + 160_000, limit: 500 });
    expect(found.total).toBe(60);
    expect(found.items.map((j) => j.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, k) => 101 + k));

    expect(query.window({ ...base, finished: false }).total).toBe(10);
    expect(query.window({ ...base, finished: true }).total).toBe(290);

    const text = query.window({ ...base, text: 'CENSUS_00', limit: 500 });
    expect(text.total).toBe(50);
    expect(text.items.every((j) => j.name.startsWith('Census_00'))).toBe(true);

    const all = query.window({ ...base, states: ['uploaded', 'duplicate'], fileTypes: ['2'], text: 'receipts', foundSince: T0 + 10_000, limit: 500 });
    const expected = Array.from({ length: 290 }, (_, i) => i).filter((i) => i % 2 === 1 && i % 3 !== 1 && i >= 10);
    expect(all.items.map((j) => j.id).sort((a, b) => a - b)).toEqual(expected.map((i) => i + 1));
    expect(all.total).toBe(expected.length);
  });

  it('filters the days found by the instants the screen gives, never by the day the PC\'s zone called it then', () => {
    // Found while the PC was set to Tokyo (UTC+9) instead of New York (UTC-5 in November): the journal's found_day is
    // Tokyo's date. The clerk, in New York, sees 12:13 PM Nov 24 and 3:00 PM Nov 23 and asks for Nov 24, which in New
    // York runs from 05:00 UTC on the 24th to 05:00 UTC on the 25th.
    const noon = journal.insertJob({ path: '/w/census-noon.csv', name: 'census-noon.csv', size: 1, mtimeMs: 1 }, Date.UTC(2026, 10, 24, 17, 13), '2026-11-25');
    const eve = journal.insertJob({ path: '/w/census-eve.csv', name: 'census-eve.csv', size: 1, mtimeMs: 1 }, Date.UTC(2026, 10, 23, 20, 0), '2026-11-24');
    const nov24 = { foundSince: Date.UTC(2026, 10, 24, 5), foundBefore: Date.UTC(2026, 10, 25, 5) };
    expect(query.window({ ...base, ...nov24, text: 'census-' }).items.map((j) => j.id)).toEqual([noon.id]);
    expect(query.window({ ...base, foundBefore: nov24.foundSince, text: 'census-' }).items.map((j) => j.id)).toEqual([eve.id]);
    expect(query.window({ ...base, foundSince: nov24.foundBefore, text: 'census-' }).total).toBe(0);
    // The end is the start of the next day: a file found at that instant is the next day's.
    expect(query.window({ ...base, foundSince: eve.createdAt, foundBefore: noon.createdAt, text: 'census-' }).items.map((j) => j.id)).toEqual([eve.id]);
  });

  it('finds the files whose type was never read by the type "none", alone or with a type', () => {
    const unread = journal.insertJob({ path: '/w/no-header.csv', name: 'no-header.csv', size: 1, mtimeMs: 1 }, T0 + 500_000, day(0));
    journal.update(unread.id, { state: 'rejected', archivedAt: T0 }, T0);
    expect(query.window({ ...base, fileTypes: ['none'] }).items.map((j) => j.name)).toEqual(['no-header.csv']);
    expect(query.window({ ...base, fileTypes: ['2', 'none'], limit: 500 }).total).toBe(151);
    expect(query.window({ ...base, fileTypes: ['1'], limit: 500 }).total).toBe(150);
    expect(query.window({ ...base, fileTypes: [] }).total).toBe(0);
  });

  it('matches short text and the characters LIKE and FTS treat specially as plain text', () => {
    expect(query.window({ ...base, text: '07' }).items.map((j) => j.name)).toContain('receipts_0007_50%_off".csv');
    expect(query.window({ ...base, text: '50%' }).total).toBe(1);
    expect(query.window({ ...base, text: '%' }).total).toBe(1);
    expect(query.window({ ...base, text: '_50%_off"' }).total).toBe(1);
    expect(query.window({ ...base, text: 'nothing-like-this' }).total).toBe(0);
    expect(query.window({ ...base, states: [] }).total).toBe(0);
  });

  it('sorts by name, size and state in both directions, ties broken by id', () => {
    const byName = query.window({ ...base, sort: { by: 'name', dir: 'asc' }, limit: 500 }).items.map((j) => j.name.toLowerCase());
    expect(byName).toEqual([...byName].sort());
    const bySize = query.window({ ...base, sort: { by: 'size', dir: 'desc' }, limit: 500 }).items;
    for (let i = 1; i < bySize.length; i += 1) {
      const [a, b] = [bySize[i - 1], bySize[i]] as [typeof bySize[0], typeof bySize[0]];
      expect(a.size > b.size || (a.size === b.size && a.id > b.id)).toBe(true);
    }
    const byState = query.window({ ...base, sort: { by: 'state', dir: 'asc' }, limit: 500 }).items.map((j) => j.state);
    expect(byState).toEqual([...byState].sort());
  });

  it('finds jobs journaled after it was opened (the name index follows through triggers)', () => {
    const job = journal.insertJob({ path: '/w/late-arrival.csv', name: 'late-arrival.csv', size: 1, mtimeMs: 1 }, T0 + 999_999, day(0));
    expect(query.window({ ...base, text: 'arrival' }).items.map((j) => j.id)).toEqual([job.id]);
  });

  it('answers a common text (thousands of matches) with the same rows, and totals follow every commit', () => {
    expect(query.window({ ...base, text: 'dense' }).total).toBe(0);
    journal.transaction(() => {
      for (let i = 0; i < 2_500; i += 1) {
        journal.insertJob({ path: `/w/dense-${i}.csv`, name: `${i % 5 === 0 ? 'DENSE' : 'dense'}-${i}.csv`, size: i, mtimeMs: i }, T0 + 10_000_000 + i, day(0));
      }
    });
    const window = query.window({ ...base, text: 'Dense', limit: 10, offset: 5 });
    expect(window.total).toBe(2_500);
    expect(window.items.map((j) => j.name)).toEqual(Array.from({ length: 10 }, (_, k) => 2_494 - k).map((i) => `${i % 5 === 0 ? 'DENSE' : 'dense'}-${i}.csv`));
    journal.insertJob({ path: '/w/dense-last.csv', name: 'dense-last.csv', size: 1, mtimeMs: 1 }, T0 + 20_000_000, day(0));
    expect(query.window({ ...base, text: 'dense', limit: 1 })).toMatchObject({ total: 2_501, items: [{ name: 'dense-last.csv' }] });
  });

  it('searches indexes instead of scanning the jobs table', () => {
    const plans = [
      { ...base, states: ['rejected' as const], text: 'census' },
      { ...base, states: ['uploaded' as const, 'duplicate' as const] },
      { ...base, fileTypes: ['2' as const] },
      { ...base, foundSince: T0 + 3000, foundBefore: T0 + 5000 },
      { ...base, text: 'receipts', sort: { by: 'name' as const, dir: 'asc' as const } },
      base,
    ].map((q) => query.plan(q).join(' | '));
    for (const plan of plans) expect(plan).not.toMatch(/SCAN jobs(?! USING)/);
  });

  it('windows the manual batches with their total', () => {
    for (let i = 0; i < 5; i += 1) journal.insertBatch('census', i + 1, T0 + i);
    const window = query.batches(1, 2);
    expect(window.total).toBe(5);
    expect(window.items.map((b) => b.records)).toEqual([4, 3]);
  });
});
