/** The error body every error response uses (spec "Error body", docs/service-decisions.md §7). */
import { z } from 'zod';

export const OAUTH_ERRORS = ['invalid_client', 'unsupported_grant_type', 'invalid_request'] as const;

export const errorBodySchema = z.object({
  title: z.string(),
  statusCode: z.number().int(),
  timestamp: z.string(),
  errors: z.array(z.string()),
  /** OAuth's error code, on token endpoint errors only. */
  error: z.enum(OAUTH_ERRORS).optional(),
  /** On 500s: the trace id to quote to support (also in the X-Trace-Id header of every response). */
  traceId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  505: 'HTTP Version Not Supported',
  507: 'Insufficient Storage',
};

export function errorBody(statusCode: number, errors: string[], extra: Partial<ErrorBody> = {}): ErrorBody {
  return {
    title: STATUS_TITLES[statusCode] ?? 'Error',
    statusCode,
    timestamp: new Date().toISOString(),
    errors,
    ...extra,
  };
}
