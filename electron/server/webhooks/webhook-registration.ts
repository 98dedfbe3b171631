/**
 * A client's webhook registration, read and written the one way for every door to it: PUT/GET /local/v1/webhook
 * and the desktop app's Local server screen (through the bridge, without HTTP).
 */
import type { ServerContext } from '../context';
import { findClient, setClientWebhook } from '../auth/clients';
import { newWebhookSecret } from './webhook-secret';
import { checkWebhookUrl, webhookSendRefusal, type WebhookUrlCheck } from './webhook-url';

/** The registration, its URL normalised; `problem` (only then) says why this server will not send to it. */
export type WebhookRegistration = { url: string | null; secretSet: boolean; problem?: string };

const allowRemote = (ctx: ServerContext) => ctx.options.allowRemoteWebhooks === true;

/**
 * What is registered. `problem` is set when this server will not send to the stored URL, e.g. a remote URL
 * registered by a start with --allow-remote-webhooks while this one was started without.
 */
export function webhookRegistration(ctx: ServerContext, clientId: string): WebhookRegistration {
  const client = findClient(ctx.db, clientId);
  const secretSet = Boolean(client?.webhookSecret);
  if (!client?.webhookUrl) return { url: null, secretSet };
  const checked = webhookSendRefusal(client.webhookUrl, allowRemote(ctx));
  return 'reason' in checked ? { url: client.webhookUrl, secretSet, problem: checked.reason } : { url: checked.url, secretSet };
}

/**
 * Registers `url` (normalised) with `secret`, or a new secret when none is given, which the answer then carries
 * (the only time it is shown). A URL this server would not send to is refused: the failed check is answered and
 * nothing is stored.
 */
export function registerWebhook(
  ctx: ServerContext, clientId: string, url: string, secret: string | undefined,
): Extract<WebhookUrlCheck, { ok: false }> | (WebhookRegistration & { secret?: string }) {
  const checked = checkWebhookUrl(url, allowRemote(ctx));
  if (!checked.ok) return checked;
  const used = secret ?? newWebhookSecret();
  setClientWebhook(ctx.db, clientId, checked.url, used);
  const state = webhookRegistration(ctx, clientId);
  return secret === undefined ? { ...state, secret: used } : state;
}

export function removeWebhook(ctx: ServerContext, clientId: string): void {
  setClientWebhook(ctx.db, clientId, null, null);
}
