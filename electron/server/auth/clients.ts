/**
 * Clients of the local server: secrets kept only as scrypt hashes, compared in constant time. Logins hash
 * asynchronously, a few at a time, so a flood of wrong logins never stalls other requests; a secret that
 * matched once is remembered (as a SHA-256 of id, secret and stored hash) until the client's secret changes.
 */
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Scope } from '../../../shared';
import type { Db } from '../db/database';
import { statement } from '../db/database';
import type { ClientSpec } from '../options';

export type StoredClient = {
  id: string; scopes: Scope[]; webhookUrl: string | null; webhookSecret: string | null;
  /** Changes whenever the client's secret changes: tokens carry it, so a re-secreted client's old tokens stop working. */
  secretVersion: string;
};

const KEY_LENGTH = 32;
const hashSync = (secret: string, salt: string) => scryptSync(secret, salt, KEY_LENGTH).toString('hex');
const hashAsync = (secret: string, salt: string) =>
  new Promise<string>((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, (error, key) => (error ? reject(error) : resolve(key.toString('hex'))));
  });

// Compared against when the client id is unknown, so an unknown id costs the same time as a wrong secret.
const DUMMY = { salt: 'dummy-salt', secret_hash: hashSync('not-a-secret', 'dummy-salt') };

type ClientRow = { id: string; secret_hash: string; salt: string; scopes: string; webhook_url: string | null; webhook_secret: string | null };

const versionOf = (secretHash: string) => createHash('sha256').update(secretHash).digest('base64url').slice(0, 16);

const toClient = (row: ClientRow): StoredClient => ({
  id: row.id,
  scopes: JSON.parse(row.scopes) as Scope[],
  webhookUrl: row.webhook_url,
  webhookSecret: row.webhook_secret,
  secretVersion: versionOf(row.secret_hash),
});

const rowOf = (db: Db, id: string) => statement(db, 'SELECT * FROM clients WHERE id = ?').get(id) as ClientRow | undefined;

// Every request looks its client up (token checks, webhook events); clients change only through the writes
// below, which clear this cache, so it never serves a stale client.
const cached = new WeakMap<Db, Map<string, StoredClient | null>>();
const cacheOf = (db: Db) => {
  let cache = cached.get(db);
  if (!cache) cached.set(db, (cache = new Map<string, StoredClient | null>()));
  return cache;
};
const forget = (db: Db) => cacheOf(db).clear();

/**
 * Stores a client given at start. The same secret again keeps its hash (so tokens stay valid across a restart);
 * a new secret gets a new salt and hash, which ends the tokens issued under the old one.
 */
export function upsertClient(db: Db, spec: ClientSpec): void {
  const row = rowOf(db, spec.id);
  const scopes = JSON.stringify(spec.scopes);
  forget(db);
  if (row && timingSafeEqual(Buffer.from(hashSync(spec.secret, row.salt), 'hex'), Buffer.from(row.secret_hash, 'hex'))) {
    statement(db, 'UPDATE clients SET scopes = ? WHERE id = ?').run(scopes, spec.id);
    return;
  }
  const salt = randomBytes(16).toString('hex');
  statement(db,
    `INSERT INTO clients (id, secret_hash, salt, scopes, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET secret_hash = excluded.secret_hash, salt = excluded.salt, scopes = excluded.scopes`,
  ).run(spec.id, hashSync(spec.secret, salt), salt, scopes, new Date().toISOString());
}

/** Removes every stored client not in `keep` (the clients given at start are the whole set). */
export function removeClientsExcept(db: Db, keep: string[]): void {
  const ids = new Set(keep);
  forget(db);
  for (const row of statement(db, 'SELECT id FROM clients').all() as { id: string }[]) {
    if (!ids.has(row.id)) statement(db, 'DELETE FROM clients WHERE id = ?').run(row.id);
  }
}

export function setClientWebhook(db: Db, clientId: string, url: string | null, secret: string | null): void {
  forget(db);
  statement(db, 'UPDATE clients SET webhook_url = ?, webhook_secret = ? WHERE id = ?').run(url, secret, clientId);
}

export function findClient(db: Db, id: string): StoredClient | undefined {
  const cache = cacheOf(db);
  const hit = cache.get(id);
  if (hit !== undefined) return hit ?? undefined;
  const row = rowOf(db, id);
  const client = row ? toClient(row) : undefined;
  // Unknown ids are remembered too (bounded), so a stream of bad tokens does not read the table each time.
  if (cache.size < 10_000) cache.set(id, client ?? null);
  return client;
}

export function listClients(db: Db): StoredClient[] {
  return (statement(db, 'SELECT * FROM clients ORDER BY id').all() as ClientRow[]).map(toClient);
}

/** Logins hashed at once; the rest wait their turn (libuv runs four hashes in parallel by default). */
export const MAX_CONCURRENT_HASHES = 4;
const MAX_REMEMBERED = 1000;

export type Authenticator = (id: string, secret: string) => Promise<StoredClient | undefined>;

/** Checks client credentials: the client when id and secret match, undefined otherwise (same work either way). */
export function createAuthenticator(db: Db): Authenticator {
  let running = 0;
  const waiting: (() => void)[] = [];
  const remembered = new Set<string>();

  const limited = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };

  return async (id, secret) => {
    const row = rowOf(db, id);
    // Keyed by the stored hash too: a new secret for the client forgets the old one's success.
    const memo = row ? createHash('sha256').update(`${id}\0${secret}\0${row.secret_hash}`).digest('base64') : undefined;
    if (row && memo && remembered.has(memo)) return toClient(row);
    const against = row ?? DUMMY;
    const hash = await limited(() => hashAsync(secret, against.salt));
    const ok = timingSafeEqual(Buffer.from(hash, 'hex'), Buffer.from(against.secret_hash, 'hex'));
    if (!ok || !row || !memo) return undefined;
    // The row may have changed while hashing (a restart cannot, but stay exact): only the hashed row counts.
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.values().next().value as string);
    remembered.add(memo);
    return toClient(row);
  };
}
