import type { NoticeEnd } from '../../../shared/bridge';

/**
 * A failure that lasts until something happens (`until`): the clerk's notice of it is kept until then, when the
 * part that said it emits `over` with the same end, or until the clerk dismisses it. Without an end, a notice of a
 * problem that is over ("disk is full" after the journal was written again) would stay beside the news that it is.
 */
/** A message for the clerk (not a failure) that lasts until something happens, as a LastingError does. */
export type LastingNotice = { message: string; until: NoticeEnd };

export class LastingError extends Error {
  constructor(message: string, readonly until: NoticeEnd, options?: ErrorOptions) {
    super(message, options);
  }
}
