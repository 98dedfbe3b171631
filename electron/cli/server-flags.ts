/** Parses and checks the `server` command's flags into server options. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Scope } from '../../shared';
import { LIMITS, SCOPES, webhookSecretSchema } from '../../shared';
import { appDataDir } from '../lib/app-data';
import type { ClientSpec } from '../server/options';
import type { StartOptions } from '../server/server';
import { UsageError } from './usage-error';

export const SERVER_USAGE = `Usage: payroll-uploader server [flags]

  --host H                          address to bind (default 127.0.0.1)
  --port N                          port, 0 picks a free one (default 8787)
  --data-dir D                      folder for the SQLite file and uploaded files
  --client ID:SECRET[:SCOPE,...]    a client (repeatable); no scopes = all scopes
  --webhook-url URL                 the clients' webhook endpoint
  --webhook-secret whsec_...        its signing secret (default: a new one, printed once)
  --retry-delays MS,MS,MS,MS,MS     delays before retries 1..5 (default 2000,4000,8000,16000,32000)
  --token-ttl S                     access-token lifetime in seconds (default 1200)
  --upload-ttl S                    upload-address lifetime in seconds (default 900)
  --tls-cert F --tls-key F          serve HTTPS (TLS 1.2 minimum)
Scopes: ${SCOPES.join(', ')}`;

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
  }
  return Number(value);
}

export function parseClient(value: string): ClientSpec {
  const first = value.indexOf(':');
  if (first <= 0) throw new UsageError(`--client must be ID:SECRET[:SCOPE,...], not "${value.split(':')[0]}..."`);
  const id = value.slice(0, first);
  const rest = value.slice(first + 1);
  const second = rest.indexOf(':');
  const secret = second === -1 ? rest : rest.slice(0, second);
  if (!secret) throw new UsageError(`--client ${id}: the secret is empty`);
  if (second === -1) return { id, secret, scopes: [...SCOPES] };
  const scopes = rest.slice(second + 1).split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length || scopes.length === 0) {
    throw new UsageError(`--client ${id}: unknown scope(s) ${unknown.join(', ') || '(none given)'}; valid scopes: ${SCOPES.join(', ')}`);
  }
  return { id, secret, scopes: [...new Set(scopes)] as Scope[] };
}

function httpUrl(flag: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // reported below
  }
  throw new UsageError(`${flag} must be an http:// or https:// address, not "${value}"`);
}

export function parseServerFlags(args: string[], env: NodeJS.ProcessEnv = process.env): StartOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' }, port: { type: 'string' }, 'data-dir': { type: 'string' },
        client: { type: 'string', multiple: true }, 'webhook-url': { type: 'string' }, 'webhook-secret': { type: 'string' },
        'retry-delays': { type: 'string' }, 'token-ttl': { type: 'string' }, 'upload-ttl': { type: 'string' },
        'tls-cert': { type: 'string' }, 'tls-key': { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options: StartOptions = { dataDir: values['data-dir'] ?? join(appDataDir(env), 'local-server') };
  if (values.host !== undefined) {
    if (!values.host.trim()) throw new UsageError('--host must not be empty');
    options.host = values.host;
  }
  if (values.port !== undefined) options.port = wholeNumber('--port', values.port, 0, 65535);
  if (values.client) {
    options.clients = values.client.map(parseClient);
    const ids = options.clients.map((c) => c.id);
    const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
    if (repeated) throw new UsageError(`--client ${repeated} is given twice`);
  }
  if (values['webhook-secret'] !== undefined && values['webhook-url'] === undefined) {
    throw new UsageError('--webhook-secret needs --webhook-url');
  }
  if (values['webhook-url'] !== undefined) {
    const secret = values['webhook-secret'];
    if (secret !== undefined && !webhookSecretSchema.safeParse(secret).success) {
      throw new UsageError('--webhook-secret must be whsec_ followed by base64 of at least 24 random bytes');
    }
    options.webhook = { url: httpUrl('--webhook-url', values['webhook-url']), ...(secret ? { secret } : {}) };
  }
  if (values['retry-delays'] !== undefined) {
    const parts = values['retry-delays'].split(',');
    if (parts.length !== LIMITS.deliveryRetries) {
      throw new UsageError(`--retry-delays needs ${LIMITS.deliveryRetries} comma-separated delays in milliseconds, one per retry`);
    }
    options.retryDelaysMs = parts.map((p) => wholeNumber('--retry-delays', p.trim(), 0, 86_400_000));
  }
  if (values['token-ttl'] !== undefined) options.tokenTtlSeconds = wholeNumber('--token-ttl', values['token-ttl'], 1, 86_400 * 30);
  if (values['upload-ttl'] !== undefined) options.uploadTtlSeconds = wholeNumber('--upload-ttl', values['upload-ttl'], 1, 86_400 * 7);
  const cert = values['tls-cert'];
  const key = values['tls-key'];
  if ((cert === undefined) !== (key === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
  if (cert !== undefined && key !== undefined) {
    for (const [flag, file] of [['--tls-cert', cert], ['--tls-key', key]] as const) {
      if (!existsSync(file)) throw new UsageError(`${flag}: no such file ${file}`);
    }
    options.tls = { cert, key };
  }
  return options;
}
