/** A failure with its HTTP status and the messages of the error body. Throw it from any route. */
import type { ErrorBody } from '../../../shared';
import { LIMITS } from '../../../shared';

/** At most LIMITS.listedErrors messages, the last saying how many were left out (a 5 MB batch may have millions). */
export function listedMessages(messages: string[]): string[] {
  const max = LIMITS.listedErrors;
  if (messages.length <= max) return messages;
  return [...messages.slice(0, max), `… and ${messages.length - max} more (only the first ${max} problems are listed)`];
}

export class HttpError extends Error {
  readonly messages: string[];

  constructor(
    readonly statusCode: number,
    messages: string[],
    readonly extra: Partial<ErrorBody> = {},
    readonly headers: Record<string, string> = {},
  ) {
    const listed = listedMessages(messages);
    super(listed.join('; '));
    this.name = 'HttpError';
    this.messages = listed;
  }
}
