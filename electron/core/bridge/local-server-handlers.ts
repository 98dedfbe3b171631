/** The local-server methods: only the embedded server, through its own stores (no HTTP round trip to ourselves). */
import { webhookSecretSchema } from '../../../shared';
import { BridgeError, invalidArgument, type FaultRuleView, type RequestLogEntryView, type WebhookView } from '../../../shared/bridge';
import { faultStore } from '../../server/local/fault-store';
import { faultRulesSchema } from '../../server/local/local-schemas';
import { requestLog } from '../../server/local/request-log';
import type { RunningServer } from '../../server/server';
import { registerWebhook, removeWebhook, webhookRegistration } from '../../server/webhooks/webhook-registration';
import { ConflictError, type AppClient, type Session } from '../session';

type Running = { server: RunningServer; client: AppClient };

export function runningLocalServer(session: Session): Running {
  const server = session.localServer.running();
  const client = session.localServer.client();
  if (!server || !client) throw new ConflictError('The local server is not running: start it first');
  return { server, client };
}

export const webhookOf = ({ server, client }: Running): WebhookView => webhookRegistration(server.ctx, client.clientId);

/** The same registration as PUT /local/v1/webhook: the URL checked and normalised, the secret made when none is given. */
export function setWebhook({ server, client }: Running, url: string | null, secret: string | undefined): WebhookView {
  if (url === null) {
    removeWebhook(server.ctx, client.clientId);
    return webhookOf({ server, client });
  }
  if (secret !== undefined) {
    const checked = webhookSecretSchema.safeParse(secret);
    if (!checked.success) throw invalidArgument(checked.error, 'localServer.webhook.set', ['secret']);
  }
  const registered = registerWebhook(server.ctx, client.clientId, url, secret);
  if (!('ok' in registered)) return registered;
  // The built-in server is never started with --allow-remote-webhooks, so that flag is no advice here.
  const message = registered.remote
    ? 'The webhook address must be on this computer (localhost, 127.0.0.1 or [::1]): the built-in test server sends to nothing else'
    : `The webhook address ${registered.problem}`;
  throw new BridgeError({ name: 'BridgeError', code: 'invalid_argument', message, fields: [{ path: 'url', message }] });
}

export function requestLogOf({ server, client }: Running, limit: number): RequestLogEntryView[] {
  const log = requestLog(server.ctx);
  if (!log) return [];
  log.flush();
  return log.list(client.clientId, { limit }).map((entry) => ({
    id: entry.id, at: entry.at, method: entry.method, path: entry.path, status: entry.status, ms: entry.durationMs, traceId: entry.traceId,
  }));
}

export function setFaults({ server, client }: Running, rules: FaultRuleView[]): FaultRuleView[] {
  // The server's own schema has rules the contract leaves to it (one rule per prefix, never /local/v1).
  const checked = faultRulesSchema.safeParse(rules);
  if (!checked.success) throw invalidArgument(checked.error, 'localServer.faults.set', ['rules']);
  faultStore(server.ctx).replace(client.clientId, checked.data);
  return faultStore(server.ctx).list(client.clientId);
}

// Fault rules are per client on the server: the app's own client's traffic is what the clerk's screen injects into.
export const faultsOf = ({ server, client }: Running): FaultRuleView[] => faultStore(server.ctx).list(client.clientId);
export const clearFaults = ({ server, client }: Running): FaultRuleView[] => {
  faultStore(server.ctx).clear(client.clientId);
  return [];
};
