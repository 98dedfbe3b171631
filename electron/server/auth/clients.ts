/** Clients of the local server: secrets kept only as scrypt hashes, compared in constant time. */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Scope } from '../../../shared';
import type { Db } from '../db/database';
import { statement } from '../db/database';
import type { ClientSpec } from '../options';

export type StoredClient = { id: string; scopes: Scope[]; webhookUrl: string | null; webhookSecret: string | null };

const hash = (secret: string, salt: string) => scryptSync(secret, salt, 32).toString('hex');
// Compared against when the client id is unknown, so an unknown id costs the same time as a wrong secret.
const DUMMY = { salt: 'dummy-salt', secret_hash: hash('not-a-secret', 'dummy-salt') };

type ClientRow = { id: string; secret_hash: string; salt: string; scopes: string; webhook_url: string | null; webhook_secret: string | null };

const toClient = (row: ClientRow): StoredClient => ({
  id: row.id,
  scopes: JSON.parse(row.scopes) as Scope[],
  webhookUrl: row.webhook_url,
  webhookSecret: row.webhook_secret,
});

/** Stores (or replaces) a client given at start. */
export function upsertClient(db: Db, spec: ClientSpec): void {
  const salt = randomBytes(16).toString('hex');
  statement(db, 
    `INSERT INTO clients (id, secret_hash, salt, scopes, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET secret_hash = excluded.secret_hash, salt = excluded.salt, scopes = excluded.scopes`,
  ).run(spec.id, hash(spec.secret, salt), salt, JSON.stringify(spec.scopes), new Date().toISOString());
}

export function setClientWebhook(db: Db, clientId: string, url: string | null, secret: string | null): void {
  statement(db, 'UPDATE clients SET webhook_url = ?, webhook_secret = ? WHERE id = ?').run(url, secret, clientId);
}

export function findClient(db: Db, id: string): StoredClient | undefined {
  const row = statement(db, 'SELECT * FROM clients WHERE id = ?').get(id) as ClientRow | undefined;
  return row ? toClient(row) : undefined;
}

export function listClients(db: Db): StoredClient[] {
  return (statement(db, 'SELECT * FROM clients ORDER BY id').all() as ClientRow[]).map(toClient);
}

/** The client when id and secret match; undefined otherwise (same work either way). */
export function authenticateClient(db: Db, id: string, secret: string): StoredClient | undefined {
  const row = statement(db, 'SELECT * FROM clients WHERE id = ?').get(id) as ClientRow | undefined;
  const against = row ?? DUMMY;
  const ok = timingSafeEqual(Buffer.from(hash(secret, against.salt), 'hex'), Buffer.from(against.secret_hash, 'hex'));
  return ok && row ? toClient(row) : undefined;
}
