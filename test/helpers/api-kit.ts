/** Test-only helpers of the API client's tests: a self-signed certificate, the server's request log, fault rules. */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { requestLog } from '../../electron/server/local/request-log';
import type { RunningServer } from '../../electron/server/server';

export type TestCert = { cert: string; key: string; certPem: string };

/** A one-day self-signed certificate for the given DNS names, plus 127.0.0.1. */
export async function makeTestCert(dir: string, names: string[]): Promise<TestCert> {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const san = [...names.map((n) => `DNS:${n}`), 'IP:127.0.0.1'].join(',');
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', `/CN=${names[0] ?? 'localhost'}`, '-addext', `subjectAltName=${san}`, '-keyout', key, '-out', cert,
  ]);
  return { cert, key, certPem: await readFile(cert, 'utf8') };
}

/** Requests of the server's request log whose path matches the SQL LIKE `pattern`, oldest first (the log is flushed first). */
export function loggedRequests(server: RunningServer, pattern: string): { method: string; path: string; status: number }[] {
  requestLog(server.ctx)?.flush();
  return server.ctx.db.prepare('SELECT method, path, status FROM request_log WHERE path LIKE ? ORDER BY id').all(pattern) as
    { method: string; path: string; status: number }[];
}

/** Sets the server's fault rules through its HTTP API. */
export async function setFaults(url: string, token: string, rules: unknown[]): Promise<void> {
  const res = await fetch(`${url}/local/v1/faults`, {
    method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(rules),
  });
  if (!res.ok) throw new Error(`PUT /local/v1/faults: ${res.status} ${await res.text()}`);
}

/** Clears the server's fault rules of the token's client through its HTTP API (which also ends the waits of imports they delayed). */
export async function clearFaults(url: string, token: string): Promise<void> {
  const res = await fetch(`${url}/local/v1/faults`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 204) throw new Error(`DELETE /local/v1/faults: ${res.status} ${await res.text()}`);
}

/** The ids of the token's client's imports that are QUEUED now, oldest first, through the server's HTTP API. */
export async function queuedImports(url: string, token: string): Promise<string[]> {
  const res = await fetch(`${url}/local/v1/imports?status=QUEUED`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET /local/v1/imports: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }[]).map((row) => row.id).reverse();
}
