/** Webhook events sent to the client's endpoint (docs/service-decisions.md §6). */
import { z } from 'zod';
import { recordErrorSchema } from './imports.schema';
import { RECORD_KINDS } from './records.schema';

export const WEBHOOK_EVENT_TYPES = ['import.processed', 'import.rejected'] as const;

export const webhookEventSchema = z.object({
  id: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  createdAt: z.string(),
  data: z.object({
    importId: z.string(),
    kind: z.enum(RECORD_KINDS),
    source: z.enum(['json', 'file']),
    fileName: z.string().optional(),
    status: z.enum(['PROCESSED', 'REJECTED']),
    acceptedRecords: z.number().int(),
    rejectedRecords: z.number().int(),
    errors: z.array(recordErrorSchema),
  }),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** `whsec_` + base64 of at least 24 bytes. */
// A pattern, not a function, so the OpenAPI document carries the rule too: 32 base64 characters hold 24 bytes.
export const webhookSecretSchema = z.string()
  .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'must be whsec_ followed by base64 of at least 24 random bytes');
