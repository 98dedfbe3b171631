/** `payroll-uploader send census|receipt <file.json>`: a direct JSON import, journaled like every send. */
import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { LIMITS } from '../../shared';
import { BatchValidationError } from '../core/queue';
import { createLogger } from '../lib/logger';
import { openCliContext, usageErrors } from './cli-context';
import { openCliSession } from './cli-session';
import { EXIT, UsageError } from './usage-error';

export const SEND_USAGE = `Usage: payroll-uploader send census|receipt <file.json> [--env local|sandbox|production] [--base-url URL] [--json]

  Sends a JSON array of census or receipt records (up to 5 MB) as a direct import. The records are checked
  against the service's rules first; nothing is sent when any is invalid.`;

export async function sendCommand(args: string[]): Promise<number> {
  const { values, positionals } = usageErrors(() => parseArgs({
    args, allowPositionals: true, strict: true,
    options: { env: { type: 'string' }, 'base-url': { type: 'string' }, json: { type: 'boolean' } },
  }));
  const [kind, file, ...extra] = positionals;
  if (kind !== 'census' && kind !== 'receipt') throw new UsageError('say census or receipt');
  if (!file || extra.length) throw new UsageError('give exactly one JSON file');
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new Error(`${file}: no such file`);
  if (info.size > LIMITS.jsonBodyBytes) {
    throw new Error(`${file} has ${info.size} bytes, over the 5 MB limit of direct JSON imports; send the data as a CSV file through the watched folder instead`);
  }
  let records: unknown;
  try {
    records = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }

  const ctx = openCliContext();
  const session = await openCliSession(ctx, { env: values.env, baseUrl: values['base-url'], files: false }, createLogger('send'));
  try {
    const result = await session.sendBatch(kind, records);
    if (values.json) process.stdout.write(`${JSON.stringify({ batch: result.batch, created: result.created ?? null })}\n`);
    if (!result.created) {
      if (!values.json) process.stderr.write(`not sent: ${result.batch.error ?? result.batch.state}\n`);
      return EXIT.failure;
    }
    if (!values.json) process.stdout.write(`sent ${result.created.records} ${kind} record(s): import ${result.created.id} ${result.created.status}\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof BatchValidationError) {
      process.stderr.write(`nothing was sent; ${file} has invalid records:\n${error.messages.map((m) => `  ${m}`).join('\n')}\n`);
      return EXIT.failure;
    }
    throw error;
  } finally {
    await session.close();
  }
}
