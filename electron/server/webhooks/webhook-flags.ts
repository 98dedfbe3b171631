/**
 * The webhook of --webhook-url/--webhook-secret, given to the clients they configure. A client's registration is its
 * own between starts (PUT or DELETE /local/v1/webhook may have changed it), so the flags are applied to a client once
 * per value: at the first start that gives them to it, and again only when they changed since. What was applied to
 * each client is kept in meta (as a hash: never a secret there). A client with no record yet (one that registered
 * with PUT before the flags first reached it, or a data folder from before the record was kept) gets the flags like
 * any other: the command line is the newest instruction, so a webhook URL the client had gives way, said on standard
 * error. One already at the flags' URL keeps its secret (the earlier versions' starts wrote the flags' URL every
 * time, so an upgrade started with the same flags changes nothing).
 */
import { createHash } from 'node:crypto';
import { findClient, listClients, setClientWebhook } from '../auth/clients';
import type { Db } from '../db/database';
import { statement } from '../db/database';
import { newWebhookSecret } from './webhook-secret';

const META_KEY = 'webhook_flags';

/** Client id → fingerprint of the flags last applied to it. */
type Applied = Record<string, string>;

function readApplied(db: Db): Applied {
  const row = statement(db, 'SELECT value FROM meta WHERE key = ?').get(META_KEY) as { value: string } | undefined;
  try {
    const parsed: unknown = row ? JSON.parse(row.value) : {};
    return parsed && typeof parsed === 'object' ? parsed as Applied : {};
  } catch {
    return {}; // unreadable: as on a first start, the flags apply where they change something
  }
}

function writeApplied(db: Db, applied: Applied): void {
  statement(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
    .run(META_KEY, JSON.stringify(applied));
}

const fingerprintOf = (flags: { url: string; secret?: string }) =>
  createHash('sha256').update(JSON.stringify([flags.url, flags.secret ?? null])).digest('base64url');

/** The line telling what applying the flags changes in a client's registration, or none for a new registration. */
function changeLine(id: string, before: { webhookUrl: string | null; webhookSecret: string | null }, flags: { url: string; secret?: string }): string | undefined {
  const newSecret = flags.secret !== undefined && before.webhookSecret !== null && flags.secret !== before.webhookSecret;
  if (before.webhookUrl && before.webhookUrl !== flags.url) {
    return `webhook of client "${id}" was ${before.webhookUrl}; --webhook-url sets it to ${flags.url}`
      + (newSecret ? ', and --webhook-secret its signing secret' : before.webhookSecret ? ', signed as before' : '');
  }
  if (before.webhookUrl && newSecret) return `webhook of client "${id}" stays ${flags.url}; --webhook-secret replaces its signing secret`;
  return undefined;
}

/**
 * Applies the flags to each of `targets` where they differ from the last ones applied to it, or none were: the flags'
 * URL, with --webhook-secret when given, else the client's own secret (never another client's), else a new one of its
 * own, told through `notice` this once. Applying them to a client already at the flags' URL with that secret changes
 * nothing but the record. Every change to a URL or secret the client had is told through `notice` (after the
 * transaction, so nothing is told that was not stored).
 */
export function applyWebhookFlags(db: Db, flags: { url: string; secret?: string }, targets: string[], notice: (line: string) => void): void {
  const lines: string[] = [];
  db.transaction(() => {
    const applied = readApplied(db);
    const fingerprint = fingerprintOf(flags);
    for (const id of targets) {
      const client = findClient(db, id);
      if (!client || applied[id] === fingerprint) continue;
      const secret = flags.secret ?? client.webhookSecret ?? newWebhookSecret();
      const change = changeLine(id, client, flags);
      if (change) lines.push(change);
      if (!flags.secret && !client.webhookSecret) lines.push(`webhook signing secret of client "${id}" (shown only this once): ${secret}`);
      setClientWebhook(db, id, flags.url, secret);
      applied[id] = fingerprint;
    }
    writeApplied(db, applied);
  })();
  for (const line of lines) notice(line);
}

/** Forgets what the flags did to clients no longer stored: one given again later is a new client to them. */
export function forgetRemovedClients(db: Db): void {
  const applied = readApplied(db);
  const stored = new Set(listClients(db).map((c) => c.id));
  const kept = Object.fromEntries(Object.entries(applied).filter(([id]) => stored.has(id)));
  if (Object.keys(kept).length !== Object.keys(applied).length) writeApplied(db, kept);
}
