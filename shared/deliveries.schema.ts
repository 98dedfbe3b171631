/** Webhook delivery attempts and their audit query (spec "Delivery attempt", docs/service-decisions.md §6). */
import { z } from 'zod';
import { LIMITS } from './limits';

export const DELIVERY_TYPE = { NEW: 1, RETRY: 2 } as const;
export const DELIVERY_STATUS = { PENDING: 1, SUCCESS: 2, FAILED: 3 } as const;

export const deliveryAttemptSchema = z.object({
  id: z.number().int(),
  type: z.union([z.literal(1), z.literal(2)]),
  status: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** null while pending, and after a time-out or connection error. */
  httpStatusCode: z.number().int().nullable(),
  /** 0 while pending. */
  durationMs: z.number().int(),
  /** The retries performed so far, this attempt included: 0 for the first attempt (type 1), 1 to 5 for a retry (type 2). */
  attemptCount: z.number().int(),
  /** UTC, `YYYY-MM-DDTHH:MM:SS`, no zone designator. */
  createdAt: z.string(),
  /** The event this attempt delivers (the `webhook-id` header), an extension. */
  eventId: z.string(),
  eventType: z.string(),
  /**
   * Why a FAILED attempt did not deliver, in words (an extension): the endpoint's non-2xx answer, no answer in
   * time, no connection, not sent (a URL this server may not send to), or a stop. null while pending and on success.
   * The local server always sends it; a service that does not is read without it.
   */
  failure: z.string().nullable().optional(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

const intParam = (name: string, min: number, max: number) =>
  z.string()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be a whole number from ${min} to ${max}`);

/** Query of GET /law/api/v1/deliveries; values arrive as strings. */
export const deliveriesQuerySchema = z.strictObject(
  {
    status: intParam('status', 1, 3).optional(),
    maxRetries: intParam('maxRetries', 0, LIMITS.deliveryRetries).optional(),
    limit: intParam('limit', 1, LIMITS.deliveriesMaxLimit).default(LIMITS.deliveriesDefaultLimit),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown query parameter(s): ${(iss.keys ?? []).join(', ')}` : 'bad query') },
);
export type DeliveriesQuery = z.output<typeof deliveriesQuerySchema>;

/** The largest delivery id read: 15 digits, so every id is a number held exactly. */
export const MAX_DELIVERY_ID = 999_999_999_999_999;
const DELIVERY_ID_RULE = `the delivery id must be a whole number from 1 to ${MAX_DELIVERY_ID}`;

/** A delivery id in a path; one message for every id outside the range, a number too large included. */
export const deliveryIdSchema = z.string().regex(/^\d{1,15}$/, DELIVERY_ID_RULE).transform(Number).refine((id) => id >= 1, DELIVERY_ID_RULE);
