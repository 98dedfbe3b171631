/** What the local server is started with (the `server` command's flags, and tests). */
import type { Scope } from '../../shared';
import { LIMITS } from '../../shared';
import type { Logger } from '../lib/logger';

export type ClientSpec = { id: string; secret: string; scopes: Scope[] };

export type ServerOptions = {
  host: string;
  port: number;
  dataDir: string;
  clients: ClientSpec[];
  webhook?: { url: string; secret?: string };
  /** Webhook URLs may name other hosts than this machine (--allow-remote-webhooks). */
  allowRemoteWebhooks?: boolean;
  retryDelaysMs: number[];
  tokenTtlSeconds: number;
  uploadTtlSeconds: number;
  /** The spec's 5 s; only tests shorten it. */
  deliveryTimeoutMs: number;
  /** How long a request body (an upload PUT, a JSON or form body) may send no byte before it is answered 408 (30 s); only tests shorten it. */
  bodyStallMs?: number;
  tls?: { cert: string; key: string };
  logger?: Logger;
  /** Writes the one-time credentials notice (default: stderr). */
  notice?: (line: string) => void;
  /** Told once when a webhook event's last retry failed, automatic or a redelivery (the desktop app notifies the clerk). */
  deliveryFailed?: (failure: DeliveryFailure) => void;
};

/** A webhook event that stays FAILED after its last retry. */
export type DeliveryFailure = { clientId: string; eventId: string; eventType: string; url: string };

export const SERVER_DEFAULTS = {
  host: '127.0.0.1',
  port: 8787,
  retryDelaysMs: [...LIMITS.deliveryRetryDelaysMs],
  tokenTtlSeconds: LIMITS.tokenTtlSeconds,
  uploadTtlSeconds: LIMITS.uploadTtlSeconds,
  deliveryTimeoutMs: LIMITS.deliveryTimeoutMs,
} as const;
