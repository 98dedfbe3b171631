/** OAuth client credentials: scopes and the token response (docs/service-decisions.md §5). */
import { z } from 'zod';

export const SCOPES = ['census:write', 'receipt:write', 'submissions:write', 'deliveries:read'] as const;
export type Scope = (typeof SCOPES)[number];

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const tokenRequestSchema = z.object({ grant_type: z.literal('client_credentials') });
