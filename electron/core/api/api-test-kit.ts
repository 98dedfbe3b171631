/** Test-only helpers of the API client's tests: a self-signed certificate made with the system's openssl. */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

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
