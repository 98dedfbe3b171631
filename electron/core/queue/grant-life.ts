/**
 * How long an upload address may be used, on this computer's clock, whatever the service's clock says: the
 * arithmetic of a grant's life, and the words for a grant that cannot be used at all.
 */
import type { ReceivedGrant } from '../api';
import type { Job } from './job-types';

/** Grants are used only while this much of their life remains (or half their life, for very short-lived ones). */
export const GRANT_MARGIN_MS = 60_000;

/**
 * A fresh grant must stay usable at least this long after it arrives. One that runs out sooner would be given up
 * before its PUT could start and asked for again at once, over and over, without the retry count ever moving.
 * (Short enough for the local server's 1-second grants, which stay usable for half a second at least.)
 */
export const FRESH_GRANT_MIN_MS = 250;

export type GrantTimes = Pick<Job, 'grantUrl' | 'grantIssuedAt' | 'grantExpiresAt'>;

/**
 * When a grant received at `receivedAt` (this computer's clock) runs out, on this computer's clock. With the
 * service's `Date`, the life the service gave it by its own clock alone (`expiration` minus `Date`) is counted from
 * `receivedAt`: a clock or time zone that differs between the two machines changes nothing. `Date` has whole
 * seconds, so the life found may be up to 1 s longer than the real one; the margin grantUsable keeps (60 s, or half
 * the life) covers that. Without `Date`, only the service's `expiration` is known, and it is compared with this
 * computer's clock as it is. An unreadable `expiration` runs out at once.
 */
export function grantExpiry(grant: Pick<ReceivedGrant, 'expiration' | 'serviceDate'>, receivedAt: number): number {
  const expiration = Date.parse(grant.expiration);
  if (Number.isNaN(expiration)) return receivedAt;
  if (grant.serviceDate === undefined) return expiration;
  return receivedAt + (expiration - grant.serviceDate);
}

/** Whether a grant may still be used for a PUT started at `now` (all times on this computer's clock). */
export function grantUsable(job: GrantTimes, now: number): boolean {
  if (!job.grantUrl || job.grantExpiresAt === undefined) return false;
  const lifetime = job.grantIssuedAt !== undefined ? job.grantExpiresAt - job.grantIssuedAt : Infinity;
  // A service that issues grants living under 2 minutes could never satisfy a fixed 60 s margin: use them at once.
  const margin = Math.min(GRANT_MARGIN_MS, lifetime / 2);
  return job.grantExpiresAt - now > margin;
}

const clockTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/**
 * Why a grant received at `receivedAt` cannot be used (for one that grantUsable refuses at once), in the clerk's
 * words, naming the likely cause.
 */
export function unusableGrantReason(grant: Pick<ReceivedGrant, 'expiration' | 'serviceDate'>, receivedAt: number): string {
  const expiration = Date.parse(grant.expiration);
  if (Number.isNaN(expiration)) {
    return `the service gave an upload address without a readable time for it to run out ("${grant.expiration}"); `
      + 'if this keeps happening, tell the service\'s support';
  }
  if (grant.serviceDate !== undefined) {
    // Both times are the service's own: this computer's clock plays no part, the service's answer is at fault.
    const life = expiration - grant.serviceDate;
    const what = life <= 0
      ? `had already run out by the service's own clock (it ran out at ${clockTime(expiration)}, and the service's clock said ${clockTime(grant.serviceDate)})`
      : `runs out ${Math.round(life / 1000)} s after it was given, too soon to start an upload`;
    return `the service gave an upload address that ${what}; if this keeps happening, tell the service's support`;
  }
  // Without the service's clock only this computer's can be compared with the expiry: if it is past, this clock
  // is ahead of the service's by at least that much (and by the address's whole life more, which is not known).
  const ahead = Math.floor((receivedAt - expiration) / 60_000);
  const by = ahead >= 1 ? ` by more than ${ahead} minute${ahead === 1 ? '' : 's'}` : '';
  return `this computer's clock or time zone differs from the service's${by}: the upload address the service gave runs out at `
    + `${clockTime(expiration)}, which this computer's clock (${clockTime(receivedAt)}) says is ${receivedAt >= expiration ? 'already past' : 'too close to start an upload'}; `
    + 'check this computer\'s date, time and time zone settings';
}
