import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayRange, inDayRange } from './day-range';

// The clerk's browser in New York (Node reads TZ again when it changes).
const zone = process.env.TZ;
beforeAll(() => void (process.env.TZ = 'America/New_York'));
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('dayRange', () => {
  it('runs from the start of the first day to the start of the day after the last, where the clerk is', () => {
    expect(dayRange('2026-11-24', '2026-11-24')).toEqual({ since: Date.UTC(2026, 10, 24, 5), before: Date.UTC(2026, 10, 25, 5) });
    expect(dayRange('2026-11-24', '')).toEqual({ since: Date.UTC(2026, 10, 24, 5) });
    expect(dayRange('', '2026-11-30')).toEqual({ before: Date.UTC(2026, 11, 1, 5) });
    expect(dayRange('', '')).toEqual({});
  });

  it('reads a range given backwards the right way round', () => {
    expect(dayRange('2026-11-25', '2026-11-24')).toEqual(dayRange('2026-11-24', '2026-11-25'));
  });

  it('gives a day on which the clocks change its 23 or 25 hours, and years below 100 as they are', () => {
    const spring = dayRange('2026-03-08', '2026-03-08');
    expect((spring.before ?? 0) - (spring.since ?? 0)).toBe(23 * 3_600_000);
    const autumn = dayRange('2026-11-01', '2026-11-01');
    expect((autumn.before ?? 0) - (autumn.since ?? 0)).toBe(25 * 3_600_000);
    expect(new Date(dayRange('0050-01-02', '').since ?? 0).getFullYear()).toBe(50);
  });

  it('takes in an instant from the start and leaves out the end', () => {
    const nov24 = dayRange('2026-11-24', '2026-11-24');
    expect(inDayRange(Date.UTC(2026, 10, 24, 17, 13), nov24)).toBe(true);
    expect(inDayRange(Date.UTC(2026, 10, 24, 5), nov24)).toBe(true);
    expect(inDayRange(Date.UTC(2026, 10, 25, 5), nov24)).toBe(false);
    expect(inDayRange(Date.UTC(2026, 10, 24, 4, 59), nov24)).toBe(false);
    expect(inDayRange(0, {})).toBe(true);
  });
});
