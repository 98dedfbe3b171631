/** A failure with its HTTP status and the messages of the error body. Throw it from any route. */
import type { ErrorBody } from '../../../shared';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messages: string[],
    readonly extra: Partial<ErrorBody> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(messages.join('; '));
    this.name = 'HttpError';
  }
}
