/** The local-server methods: only the embedded server, through its own stores (no HTTP round trip to ourselves). */
import { webhookSecretSchema } from '../../../shared';
import { invalidArgument, type FaultRuleView, type RequestLogEntryView, type WebhookView } from '../../../shared/bridge';
import { findClient, setClientWebhook } from '../../server/auth/clients';
import { faultStore } from '../../server/local/fault-store';
import { faultRulesSchema } from '../../server/local/local-schemas';
import { requestLog } from '../../server/local/request-log';
import type { RunningServer } from '../../server/server';
import { newWebhookSecret } from '../../server/webhooks/webhook-secret';
import { ConflictError, type AppClient, type Session } from '../session';

type Running = { server: RunningServer; client: AppClient };

export function runningLocalServer(session: Session): Running {
  const server = session.localServer.running();
  const client = session.localServer.client();
  if (!server || !client) throw new ConflictError('The local server is not running: start it first');
  return { server, client };
}

export function webhookOf({ server, client }: Running): WebhookView {
  const stored = findClient(server.ctx.db, client.clientId);
  return { url: stored?.webhookUrl ?? null, secretSet: Boolean(stored?.webhookSecret) };
}

export function setWebhook(running: Running, url: string | null, secret: string | undefined): WebhookView {
  if (url === null) {
    setClientWebhook(running.server.ctx.db, running.client.clientId, null, null);
    return webhookOf(running);
  }
  if (secret !== undefined) {
    const checked = webhookSecretSchema.safeParse(secret);
    if (!checked.success) throw invalidArgument(checked.error, 'localServer.webhook.set', ['secret']);
  }
  const used = secret ?? newWebhookSecret();
  setClientWebhook(running.server.ctx.db, running.client.clientId, url, used);
  return { ...webhookOf(running), ...(secret === undefined ? { secret: used } : {}) };
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
