/** Parses and checks the `server` command's flags into server options. */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:net';
import type { Stats } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Scope } from '../../shared';
import { LIMITS, SCOPES, webhookSecretSchema } from '../../shared';
import { appDataDir } from '../lib/app-data';
import type { ClientSpec } from '../server/options';
import { checkWebhookUrl } from '../server/webhooks/webhook-url';
import type { StartOptions } from '../server/server';
import { GivenFileError, readGivenFile } from './given-file';
import { UsageError } from './usage-error';

/** Environment variable with clients, one ID:SECRET[:SCOPE,...] a line, as in --clients-file. */
export const CLIENTS_ENV = 'PAYROLL_SERVER_CLIENTS';

export const SERVER_USAGE = `Usage: payroll-uploader server [flags]

  --host H                          address to bind (default 127.0.0.1)
  --port N                          port, 0 picks a free one (default 8787)
  --data-dir D                      folder for the SQLite file and uploaded files
  --client ID:SECRET[:SCOPE,...]    a client (repeatable); no scopes = all scopes (the secret shows in ps: prefer
                                    --clients-file or ${CLIENTS_ENV})
  --clients-file F                  clients, one ID:SECRET[:SCOPE,...] a line (# comments); the file must not be
                                    readable by group or others
  --webhook-url URL                 the clients' webhook endpoint, set where it is new to a client (a restart with the
                                    same flags keeps what a client registered since)
  --webhook-secret whsec_...        its signing secret (default: each client's own, kept from an earlier start, or a
                                    new one, printed once)
  --allow-remote-webhooks           webhook URLs may name other hosts than this machine
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

/** Clients written one a line (blank lines and # comments skipped), as in --clients-file and the environment. */
export function parseClientLines(text: string, where: string): ClientSpec[] {
  const clients: ClientSpec[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    try {
      clients.push(parseClient(line));
    } catch (error) {
      throw new UsageError(`${where} line ${i + 1}: ${(error as Error).message.replace(/^--client /, '')}`);
    }
  });
  return clients;
}

/** Bigger than any list of clients or TLS file: a file this big is the wrong file. */
const FLAG_FILE_BYTES = 1024 * 1024;

/** The bytes of a file given with `flag`, or a usage error that names the flag and the file and says what is wrong. */
function readFlagFile(flag: string, file: string): { bytes: Buffer; stats: Stats } {
  try {
    return readGivenFile(file, FLAG_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof GivenFileError)) throw error;
    // "no such file" as before: scripts and the tests look for it. A relative name is read from the working folder,
    // which need not be the one it was typed in (npm run works in the repository's root): say where it was looked for.
    const where = isAbsolute(file) ? file : `${file} (looked for at ${resolve(file)})`;
    throw new UsageError(error.missing ? `${flag}: no such file ${where}` : `${flag} ${file} ${error.problem}`);
  }
}

/** The clients of a --clients-file, refused when group or others may read it (the secrets are in plain text). */
function readClientsFile(file: string): ClientSpec[] {
  const { bytes, stats } = readFlagFile('--clients-file', file);
  const mode = stats.mode;
  if ((mode & 0o077) !== 0) {
    throw new UsageError(`--clients-file ${file} is open to other users (mode ${(mode & 0o777).toString(8)}: group or others may read or change it); run: chmod 600 ${file}`);
  }
  const clients = parseClientLines(bytes.toString('utf8'), `--clients-file ${file}`);
  if (clients.length === 0) throw new UsageError(`--clients-file ${file} holds no client`);
  return clients;
}

/**
 * The certificate and key of --tls-cert and --tls-key, checked as TLS will use them: each file what it should be, the
 * key the certificate's own. Said now, before the port is bound, rather than as OpenSSL's words from inside the start.
 */
function checkTlsFiles(cert: string, key: string): void {
  const certBytes = readFlagFile('--tls-cert', cert).bytes;
  const keyBytes = readFlagFile('--tls-key', key).bytes;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certBytes);
  } catch {
    throw new UsageError(`--tls-cert ${cert} holds no certificate: give the certificate file, in PEM form (text starting "-----BEGIN CERTIFICATE-----")`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(keyBytes);
  } catch (error) {
    throw new UsageError((error as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE'
      ? `--tls-key ${key} is locked with a passphrase, which the server cannot ask for; give a copy of the key without one (openssl pkey -in ${key} -out new-key.pem)`
      : `--tls-key ${key} holds no private key: give the private key file, in PEM form (text starting "-----BEGIN PRIVATE KEY-----")`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new UsageError(`--tls-key ${key} is not the key of the certificate in --tls-cert ${cert}: give the private key made together with that certificate`);
  }
  try {
    createSecureContext({ cert: certBytes, key: keyBytes, minVersion: 'TLSv1.2' });
  } catch (error) {
    throw new UsageError(`--tls-cert ${cert} with --tls-key ${key} cannot serve HTTPS: ${(error as Error).message}; give a certificate and key in PEM form`);
  }
}

/** Said when --host is no address of this machine, found before the start (checkHost) or at its bind. */
export const NOT_THIS_MACHINE = (host: string) =>
  `--host ${host}: no such address on this machine; give an address of this machine, such as 127.0.0.1`;

/**
 * The address of --host, checked now: a name no one knows, or an address that is not this machine's, is a wrong flag,
 * not a failure to start, and is said before the data folder and its database are made. Whether the address is this
 * machine's is asked the way the start will find out, by binding it: a throwaway socket on a free port, closed at once.
 */
export async function checkHost(host: string | undefined): Promise<void> {
  if (host === undefined) return;
  try {
    await lookup(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOTFOUND'
      ? `--host ${host}: no address of that name is known to this machine; give an address of this machine, such as 127.0.0.1`
      : `--host ${host}: its address could not be looked up (${code ?? (error as Error).message}); give an address of this machine as numbers, such as 127.0.0.1`);
  }
  try {
    await new Promise<void>((resolveBound, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen({ host, port: 0, exclusive: true }, () => probe.close(() => resolveBound()));
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRNOTAVAIL') throw error;
    throw new UsageError(NOT_THIS_MACHINE(host));
  }
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

/** Said on standard error when a secret was given on the command line. */
export const CLIENT_FLAG_WARNING =
  `warning: --client puts the client secret on the command line, where every user of this machine can read it (ps); use --clients-file or ${CLIENTS_ENV}`;

export function parseServerFlags(args: string[], env: NodeJS.ProcessEnv = process.env, warn: (line: string) => void = () => undefined): StartOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' }, port: { type: 'string' }, 'data-dir': { type: 'string' },
        client: { type: 'string', multiple: true }, 'clients-file': { type: 'string' }, 'allow-remote-webhooks': { type: 'boolean' },
        'webhook-url': { type: 'string' }, 'webhook-secret': { type: 'string' },
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
  const clients: ClientSpec[] = [];
  if (values.client) {
    clients.push(...values.client.map(parseClient));
    warn(CLIENT_FLAG_WARNING);
  }
  if (values['clients-file'] !== undefined) clients.push(...readClientsFile(values['clients-file']));
  const fromEnv = env[CLIENTS_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') clients.push(...parseClientLines(fromEnv, CLIENTS_ENV));
  if (clients.length > 0) {
    options.clients = clients;
    const ids = options.clients.map((c) => c.id);
    const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
    if (repeated) throw new UsageError(`--client ${repeated} is given twice`);
  }
  if (values['allow-remote-webhooks']) options.allowRemoteWebhooks = true;
  if (values['webhook-secret'] !== undefined && values['webhook-url'] === undefined) {
    throw new UsageError('--webhook-secret needs --webhook-url');
  }
  if (values['webhook-url'] !== undefined) {
    const secret = values['webhook-secret'];
    if (secret !== undefined && !webhookSecretSchema.safeParse(secret).success) {
      throw new UsageError('--webhook-secret must be whsec_ followed by base64 of at least 24 random bytes');
    }
    // The same check as PUT /local/v1/webhook; the normalised URL is what is stored, shown and sent to.
    const checked = checkWebhookUrl(httpUrl('--webhook-url', values['webhook-url']), options.allowRemoteWebhooks === true);
    if (!checked.ok) throw new UsageError(`--webhook-url: ${checked.problem}`);
    options.webhook = { url: checked.url, ...(secret ? { secret } : {}) };
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
    checkTlsFiles(cert, key);
    options.tls = { cert, key };
  }
  return options;
}
