import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** The module loaded fresh in a time zone, as in a clerk's window there (formatters pick the zone when made). */
async function formatIn(timeZone: string) {
  vi.stubEnv('TZ', timeZone);
  vi.resetModules();
  return import('./format');
}

describe('formatCalendarDate', () => {
  it('shows a reference date as its calendar day in the clerk\'s locale, the same day in every time zone', async () => {
    for (const zone of ['America/Los_Angeles', 'UTC', 'Pacific/Kiritimati']) {
      const { formatCalendarDate } = await formatIn(zone);
      expect(formatCalendarDate('2026-03-01T00:00:00Z', 'en-US'), zone).toBe('Mar 1, 2026');
      expect(formatCalendarDate('2026-12-31T00:00:00Z', 'en-GB'), zone).toBe('31 Dec 2026');
      // A plain YYYY-MM-DD reads the same.
      expect(formatCalendarDate('2026-03-01', 'en-US'), zone).toBe('Mar 1, 2026');
    }
  });

  it('uses the clerk\'s locale when none is given, like the other dates', async () => {
    const { formatCalendarDate } = await formatIn('UTC');
    expect(formatCalendarDate('2026-03-01T00:00:00Z')).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(2026, 2, 1)));
  });

  it('shows what is not a date as it came rather than a wrong day', async () => {
    const { formatCalendarDate } = await formatIn('UTC');
    expect(formatCalendarDate('2026-02-30T00:00:00Z', 'en-US')).toBe('2026-02-30T00:00:00Z');
    expect(formatCalendarDate('soon', 'en-US')).toBe('soon');
  });
});
