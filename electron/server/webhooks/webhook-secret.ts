/** The one generator of webhook signing secrets. */
import { randomBytes } from 'node:crypto';

/** A fresh `whsec_` secret: base64 of 32 random bytes (Standard Webhooks). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
