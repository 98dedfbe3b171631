import { describe, expect, it } from 'vitest';
import { FRESH_GRANT_MIN_MS, GRANT_MARGIN_MS, grantExpiry, grantUsable, unusableGrantReason } from './grant-life';

const MINUTE = 60_000;
/** The service's clock when it answered, and the 15-minute address it gave then. */
const SERVICE_NOW = Date.parse('2026-03-31T12:00:00Z');
const EXPIRATION = '2026-03-31T12:15:00Z';
const URL = 'http://127.0.0.1:1/uploads/x?expires=1&signature=y';

/** The grant's journaled times when it arrived at `receivedAt` on this computer's clock. */
const timesOf = (grant: { expiration: string; serviceDate?: number }, receivedAt: number) => ({
  grantUrl: URL, grantIssuedAt: receivedAt, grantExpiresAt: grantExpiry(grant, receivedAt),
});

describe('the life of a grant on this computer\'s clock', () => {
  it('with the service\'s Date: the life the service stated by its own clock, whatever this clock says', () => {
    for (const skew of [0, 20 * MINUTE, -20 * MINUTE, 14 * 60 * MINUTE, -1]) {
      const receivedAt = SERVICE_NOW + skew;
      const expiresAt = grantExpiry({ expiration: EXPIRATION, serviceDate: SERVICE_NOW }, receivedAt);
      expect(expiresAt - receivedAt).toBe(15 * MINUTE);
    }
  });

  it('without the service\'s Date: the service\'s expiration as it is (all there is to go by)', () => {
    expect(grantExpiry({ expiration: EXPIRATION }, SERVICE_NOW + 20 * MINUTE)).toBe(Date.parse(EXPIRATION));
  });

  it('an unreadable expiration runs out at once', () => {
    expect(grantExpiry({ expiration: 'soon', serviceDate: SERVICE_NOW }, 5_000)).toBe(5_000);
    expect(grantExpiry({ expiration: 'soon' }, 5_000)).toBe(5_000);
  });

  it('a grant received on a clock 20 minutes ahead is used until 60 s before its stated life ends', () => {
    const receivedAt = SERVICE_NOW + 20 * MINUTE;
    const times = timesOf({ expiration: EXPIRATION, serviceDate: SERVICE_NOW }, receivedAt);
    expect(grantUsable(times, receivedAt + FRESH_GRANT_MIN_MS)).toBe(true);
    const lastUse = receivedAt + 15 * MINUTE - GRANT_MARGIN_MS;
    expect(grantUsable(times, lastUse - 1)).toBe(true);
    expect(grantUsable(times, lastUse)).toBe(false);
  });

  it('without the service\'s Date, the same grant is unusable from the start (the handshake counts it as a failed try)', () => {
    const receivedAt = SERVICE_NOW + 20 * MINUTE;
    expect(grantUsable(timesOf({ expiration: EXPIRATION }, receivedAt), receivedAt)).toBe(false);
    // A clock only a little ahead still leaves it usable.
    const near = SERVICE_NOW + 5 * MINUTE;
    expect(grantUsable(timesOf({ expiration: EXPIRATION }, near), near + FRESH_GRANT_MIN_MS)).toBe(true);
  });

  it('a short-lived grant is used for half its life, even a 1-second one; one that runs out at once is not', () => {
    const short = { expiration: '2026-03-31T12:01:00Z', serviceDate: SERVICE_NOW };
    const times = timesOf(short, 0);
    expect(grantUsable(times, 29_999)).toBe(true);
    expect(grantUsable(times, 30_000)).toBe(false);
    const second = { expiration: '2026-03-31T12:00:01Z', serviceDate: SERVICE_NOW };
    expect(grantUsable(timesOf(second, 0), FRESH_GRANT_MIN_MS)).toBe(true);
    const none = { expiration: '2026-03-31T12:00:00Z', serviceDate: SERVICE_NOW };
    expect(grantUsable(timesOf(none, 0), FRESH_GRANT_MIN_MS)).toBe(false);
    const spent = { expiration: '2026-03-31T11:55:00Z', serviceDate: SERVICE_NOW };
    expect(grantUsable(timesOf(spent, 0), 0)).toBe(false);
  });

  it('a grant journaled without an issue time keeps the fixed 60 s margin', () => {
    expect(grantUsable({ grantUrl: URL, grantExpiresAt: 100_000 }, 39_999)).toBe(true);
    expect(grantUsable({ grantUrl: URL, grantExpiresAt: 100_000 }, 40_000)).toBe(false);
    expect(grantUsable({ grantExpiresAt: 100_000 }, 0)).toBe(false);
  });
});

describe('why a fresh grant cannot be used, in the clerk\'s words', () => {
  it('without the service\'s Date: this computer\'s clock, by at least how much, and what to check', () => {
    const reason = unusableGrantReason({ expiration: EXPIRATION }, SERVICE_NOW + 20 * MINUTE);
    expect(reason).toBe(
      'this computer\'s clock or time zone differs from the service\'s by more than 5 minutes: the upload address the '
      + 'service gave runs out at 2026-03-31 12:15:00 UTC, which this computer\'s clock (2026-03-31 12:20:00 UTC) says is '
      + 'already past; check this computer\'s date, time and time zone settings',
    );
    expect(unusableGrantReason({ expiration: EXPIRATION }, SERVICE_NOW + 16 * MINUTE)).toContain('by more than 1 minute:');
    expect(unusableGrantReason({ expiration: EXPIRATION }, SERVICE_NOW + 14.99 * MINUTE)).toContain(
      'differs from the service\'s: the upload address the service gave runs out at 2026-03-31 12:15:00 UTC, which this '
      + 'computer\'s clock (2026-03-31 12:14:59 UTC) says is too close to start an upload',
    );
  });

  it('with the service\'s Date the service is at fault, not this computer', () => {
    expect(unusableGrantReason({ expiration: '2026-03-31T11:55:00Z', serviceDate: SERVICE_NOW }, SERVICE_NOW + 20 * MINUTE)).toBe(
      'the service gave an upload address that had already run out by the service\'s own clock (it ran out at '
      + '2026-03-31 11:55:00 UTC, and the service\'s clock said 2026-03-31 12:00:00 UTC); if this keeps happening, tell the service\'s support',
    );
    expect(unusableGrantReason({ expiration: '2026-03-31T12:00:03Z', serviceDate: SERVICE_NOW }, 0)).toContain(
      'an upload address that runs out 3 s after it was given, too soon to start an upload',
    );
    expect(unusableGrantReason({ expiration: 'soon', serviceDate: SERVICE_NOW }, 0)).toContain('without a readable time for it to run out ("soon")');
  });
});
