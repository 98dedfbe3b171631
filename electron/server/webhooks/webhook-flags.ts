/**
 * The webhook of --webhook-url/--webhook-secret, given to the clients they configure. A client's registration is its
 * own between starts (PUT or DELETE /local/v1/webhook may have changed it), so the flags are applied to a client once
 * per value: at the first start that gives them to it, and again only when they changed since. What was applied to
 * each client is kept in meta (as a hash: never a secret there).
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
    return {}; // unreadable: as on a first start, a client with a webhook keeps it
  }
}

function writeApplied(db: Db, applied: Applied): void {
  statement(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
    .run(META_KEY, JSON.stringify(applied));
}

const fingerprintOf = (flags: { url: string; secret?: string }) =>
  createHash('sha256').update(JSON.stringify([flags.url, flags.secret ?? null])).digest('base64url');

/**
 * Applies the flags to each of `targets` where they are new to it: the flags' URL, with --webhook-secret when given,
 * else the client's own secret (never another client's), else a new one of its own, told through `notice` this once.
 * A client the same flags were applied to before keeps its registration as it is now; so does one that has a webhook
 * but no record of the flags (registered before this rule was kept): nothing it set is lost.
 */
export function applyWebhookFlags(db: Db, flags: { url: string; secret?: string }, targets: string[], notice: (line: string) => void): void {
  db.transaction(() => {
    const applied = readApplied(db);
    const fingerprint = fingerprintOf(flags);
    for (const id of targets) {
      const client = findClient(db, id);
      if (!client || applied[id] === fingerprint) continue;
      if (applied[id] === undefined && client.webhookUrl) {
        applied[id] = fingerprint;
        continue;
      }
      const secret = flags.secret ?? client.webhookSecret ?? newWebhookSecret();
      if (!flags.secret && !client.webhookSecret) notice(`webhook signing secret of client "${id}" (shown only this once): ${secret}`);
      setClientWebhook(db, id, flags.url, secret);
      applied[id] = fingerprint;
    }
    writeApplied(db, applied);
  })();
}

/** Forgets what the flags did to clients no longer stored: one given again later is a new client to them. */
export function forgetRemovedClients(db: Db): void {
  const applied = readApplied(db);
  const stored = new Set(listClients(db).map((c) => c.id));
  const kept = Object.fromEntries(Object.entries(applied).filter(([id]) => stored.has(id)));
  if (Object.keys(kept).length !== Object.keys(applied).length) writeApplied(db, kept);
}
