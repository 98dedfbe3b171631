/** The zod contract of the local server's own endpoints under /local/v1 (docs/service-decisions.md §8). */
import { z } from 'zod';
import { IMPORT_STATUSES, LIMITS, RECORD_KINDS, webhookSecretSchema } from '../../../shared';
import { percentDecoded } from '../http/routed-path';

const intParam = (name: string, min: number, max: number) =>
  z.string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be a whole number from ${min} to ${max}`)
    .describe(`a whole number from ${min} to ${max}`);

const limitParam = () => intParam('limit', 1, LIMITS.deliveriesMaxLimit).default(LIMITS.deliveriesDefaultLimit);

const enumParam = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: () => `${name} must be one of ${values.join(', ')}` });

// Query schemas name every parameter an endpoint takes: http/query.ts refuses any other, and a repeated one.

/** Query of GET /local/v1/imports. */
export const importsQuerySchema = z.strictObject({
  limit: limitParam(),
  status: enumParam('status', IMPORT_STATUSES).optional(),
  kind: enumParam('kind', RECORD_KINDS).optional(),
  source: enumParam('source', ['json', 'file']).optional(),
});

/** Query of GET /local/v1/requests. */
export const requestsQuerySchema = z.strictObject({
  limit: limitParam(),
  pathPrefix: z.string().max(2048, 'pathPrefix must be at most 2048 characters').regex(/^\//, 'pathPrefix must start with /').optional(),
  status: intParam('status', 0, 599).optional().describe('answer status; 0 finds requests dropped by fault injection'),
});
export type RequestsQuery = z.output<typeof requestsQuerySchema>;
export type ImportsQuery = z.output<typeof importsQuerySchema>;

/** One row of the request log as GET /local/v1/requests answers it. */
export const requestLogEntrySchema = z.object({
  id: z.number().int(),
  at: z.string().describe('ISO 8601 UTC time the request arrived'),
  method: z.string().describe('empty for a request the HTTP parser refused before its request line could be read'),
  path: z.string().describe('path and query string; the values of secret and personal query parameters (`signature`, `access_token`, `ssn`...) are masked; empty as method is'),
  status: z.number().int().describe('the answer\'s status; 0 when fault injection dropped the connection'),
  durationMs: z.number().int(),
  traceId: z.string().describe('the X-Trace-Id of the answer'),
  clientId: z.string().nullable().describe('the authenticated client, when known'),
  requestBody: z.string().nullable().describe('at most 4 KiB (then a marker); secrets masked; uploaded files as "<N bytes of TYPE>"'),
  responseBody: z.string().nullable().describe('at most 4 KiB (then a marker); access tokens and secrets masked'),
});
export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;

const webhookUrlSchema = z.url({ protocol: /^https?$/, hostname: /./, error: 'url must be an absolute http(s) URL' })
  .max(2048, 'url must be at most 2048 characters');

/** Body of PUT /local/v1/webhook: a missing secret makes the server generate one. */
export const webhookPutSchema = z.strictObject(
  {
    url: webhookUrlSchema,
    secret: webhookSecretSchema.optional()
      .describe('whsec_ followed by base64 of at least 24 random bytes; generated (and returned once) when absent'),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown field(s): ${(iss.keys ?? []).join(', ')}` : 'the body must be an object { url, secret? }') },
);

/** What GET and PUT /local/v1/webhook answer; the secret only once, in the PUT that generated it. */
export const webhookStateSchema = z.object({
  url: z.string().nullable().describe('null when no webhook is registered'),
  secretSet: z.boolean(),
  secret: z.string().optional().describe('only in the answer of the PUT that generated it'),
  problem: z.string().optional().describe('only when this server will not send to the registered URL: why (each attempt is then FAILED at once)'),
});

/** A delivery's event is sent again on request at most once in this many milliseconds. */
export const REDELIVER_INTERVAL_MS = 5000;
export type WebhookState = z.infer<typeof webhookStateSchema>;

const rate = (name: string) =>
  z.number({ error: `${name} must be a number from 0 to 1` })
    .min(0, `${name} must be a number from 0 to 1`).max(1, `${name} must be a number from 0 to 1`);

export const FAULT_STATUSES = [500, 503] as const;
export const MAX_FAULT_LATENCY_MS = 60_000;
export const MAX_PROCESSING_DELAY_MS = 600_000;

const wholeMs = (name: string, max: number) => {
  const message = `${name} must be a whole number from 0 to ${max}`;
  return z.number({ error: message }).int(message).min(0, message).max(max, message);
};

/**
 * A rule's path prefix as rules match it: against the request's path alone, percent-decoded as the router reads it
 * (routedPath, in faults.ts). So the prefix is decoded the same way (`/law/api/v1/%63ensus` is `/law/api/v1/census`),
 * and a `?` or `#` in it, which no path holds, would make a rule that never fires: a 400.
 */
const faultPathPrefix = z.string({ error: 'pathPrefix is required' })
  .regex(/^\//, 'pathPrefix must start with /')
  .max(2048, 'pathPrefix must be at most 2048 characters')
  .refine((p) => !/[?#]/.test(p), 'pathPrefix must not hold ? or #: rules match the path only, never a query or fragment, so such a rule '
    + 'would never fire; give the path alone (write a ? or # that is part of a path as %3F or %23)')
  .transform((p, ctx) => {
    const decoded = percentDecoded(p);
    if (decoded !== undefined) return decoded;
    ctx.issues.push({ code: 'custom', input: p, message: 'pathPrefix holds a % that does not start a valid percent-encoding; write a literal % as %25' });
    return z.NEVER;
  })
  .refine((p) => !p.startsWith('/local/v1/') && p !== '/local/v1', 'pathPrefix must not be under /local/v1 (it is never faulted)');

/** One fault rule; the longest matching pathPrefix decides, and /local/v1 is never faulted. */
export const faultRuleSchema = z.strictObject(
  {
    pathPrefix: faultPathPrefix.describe('applies to every request whose path starts with it, except /local/v1/*. Rules match the path '
      + 'alone, percent-decoded: the prefix is decoded the same way, and stored and answered decoded (/law/api/v1/%63ensus is '
      + '/law/api/v1/census); a malformed percent-encoding is a 400, and so is a ? or # (a query or fragment, which no path holds)'),
    latencyMs: wholeMs('latencyMs', MAX_FAULT_LATENCY_MS).optional().describe('delay before the request is handled'),
    errorRate: rate('errorRate').optional().describe('share of requests answered with errorStatus and the error body; 1 always'),
    errorStatus: z.union(FAULT_STATUSES.map((s) => z.literal(s)), { error: 'errorStatus must be 500 or 503' }).optional()
      .describe('status of injected errors; default 503'),
    dropRate: rate('dropRate').optional().describe('share of connections destroyed without an answer; 1 always'),
    processingDelayMs: wholeMs('processingDelayMs', MAX_PROCESSING_DELAY_MS).optional().describe(
      'an import created by a matching request (a census or receipt POST, an upload\'s PUT) stays QUEUED at least this long after '
      + 'it was accepted; imports are processed in arrival order, so every import accepted after it waits behind it. Clearing '
      + 'the client\'s rules, or setting rules without one of the same pathPrefix and processingDelayMs, ends these waits at '
      + 'once; a restart does not keep them',
    ),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown field(s): ${(iss.keys ?? []).join(', ')}` : 'each rule must be an object') },
).refine((r) => r.latencyMs !== undefined || r.errorRate !== undefined || r.dropRate !== undefined || r.processingDelayMs !== undefined, {
  error: 'a rule needs at least one of latencyMs, errorRate, dropRate, processingDelayMs',
});
export type FaultRule = z.output<typeof faultRuleSchema>;

export const faultRulesSchema = z.array(faultRuleSchema, { error: 'the body must be a JSON array of fault rules' })
  .max(100, 'at most 100 fault rules')
  .refine((rules) => new Set(rules.map((r) => r.pathPrefix)).size === rules.length, 'each pathPrefix may appear only once');

export const healthSchema = z.object({ status: z.literal('ok') });
