/** Turns an HTTP answer into the contract's value, or into the ApiError its error body describes. */
import type { z } from 'zod';
import { errorBodySchema } from '../../../shared';
import { ApiError, UnexpectedResponseError } from './api-errors';
import type { HttpResponse } from './http-transport';
import { parseRetryAfter } from './retry-policy';

const header = (res: HttpResponse, name: string): string | undefined => {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function parseJson(res: HttpResponse): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(res.body.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Short, single-line excerpt of a body that is not the error body (a proxy's HTML page, say). */
function excerpt(body: Buffer): string {
  const text = body.toString('utf8', 0, Math.min(body.length, 400)).replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** The ApiError for a non-2xx answer: the error body's title and messages when present, else the status. */
export function errorFromResponse(res: HttpResponse, request: string): ApiError {
  const traceId = header(res, 'x-trace-id');
  const retryAfterMs = parseRetryAfter(header(res, 'retry-after'));
  const json = parseJson(res);
  const parsed = json.ok ? errorBodySchema.safeParse(json.value) : undefined;
  const common = {
    status: res.status, request,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
  if (parsed?.success) {
    const body = parsed.data;
    const trace = traceId ?? body.traceId;
    return new ApiError({
      ...common, title: body.title, messages: body.errors,
      ...(trace ? { traceId: trace } : {}),
      ...(body.error ? { oauthError: body.error } : {}),
    });
  }
  const redirect = res.status >= 300 && res.status < 400 ? header(res, 'location') : undefined;
  const text = excerpt(res.body);
  const messages = redirect
    ? [`unexpected redirect to ${redirect.split('?')[0] ?? ''} (redirects are not followed)`]
    : text ? [text] : [];
  return new ApiError({ ...common, title: `HTTP ${res.status}`, messages, ...(traceId ? { traceId } : {}) });
}

/** The body of a 2xx answer checked against its schema; UnexpectedResponseError (naming what is wrong) otherwise. */
export function parseResponse<S extends z.ZodType>(res: HttpResponse, schema: S, request: string): z.output<S> {
  const traceId = header(res, 'x-trace-id');
  const base = { status: res.status, request, ...(traceId ? { traceId } : {}) };
  const json = parseJson(res);
  if (!json.ok) throw new UnexpectedResponseError({ ...base, messages: ['the answer is not JSON'] });
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) {
    const messages = parsed.error.issues.slice(0, 10).map((issue) => {
      const path = issue.path.length ? issue.path.join('.') : 'the body';
      return `${path}: ${issue.message}`;
    });
    throw new UnexpectedResponseError({ ...base, messages: ['the answer does not match the API contract', ...messages] });
  }
  return parsed.data;
}

export { header as responseHeader };
