/** `payroll-uploader send census|receipt <file.json>`: a direct JSON import, journaled like every send. */
import { parseArgs } from 'node:util';
import { LIMITS, inexactNumberProblem } from '../../shared';
import { BatchValidationError } from '../core/queue';
import { createLogger } from '../lib/logger';
import { openCliContext, usageErrors } from './cli-context';
import { openCliSession } from './cli-session';
import { GivenFileError, readGivenFile } from './given-file';
import { EXIT, UsageError } from './usage-error';

export const SEND_USAGE = `Usage: payroll-uploader send census|receipt <file.json> [--env local|sandbox|production] [--base-url URL] [--json]

  Sends a JSON array of census or receipt records (up to 5 MB, UTF-8 text, with or without a byte order mark) as a
  direct import. The records are checked against the service's rules first (a number with more digits than it can
  hold exactly among them); nothing is sent when any is invalid.
  With --json one line tells the outcome: { batch, created } when sent, and with "error" (and "problems", the
  invalid records) when not.`;

/**
 * The records of the JSON file, or an error that says what is wrong with the file. UTF-8, with or without a byte order
 * mark (as the CSV files of the watched folder may have one: Excel and Notepad write it); UTF-16 is refused by name.
 */
export function readRecordsFile(file: string): unknown {
  let bytes: Buffer;
  try {
    ({ bytes } = readGivenFile(file, LIMITS.jsonBodyBytes));
  } catch (error) {
    if (!(error instanceof GivenFileError)) throw error;
    if (error.size !== undefined) {
      throw new Error(`${file} has ${error.size} bytes, over the 5 MB limit of direct JSON imports; send the data as a CSV file through the watched folder instead`);
    }
    throw new Error(error.missing ? `${file}: no such file` : `${file} ${error.problem}`);
  }
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || bytes.subarray(0, 4).includes(0);
  if (utf16) throw new Error(`${file} is saved as UTF-16 text; save it as UTF-8 (in Notepad: Save as, Encoding UTF-8) and send it again`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new Error(`${file} is not UTF-8 text; save it as UTF-8 (in Notepad: Save as, Encoding UTF-8) and send it again`);
  }
  let records: unknown;
  try {
    records = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  // JSON.parse would round 12.3400000000000000001 to 12.34 and send that: the service refuses such a number (400),
  // and so does this, with its words, before anything is sent.
  const inexact = inexactNumberProblem(text);
  if (inexact) throw new Error(`nothing was sent: in ${file}, ${inexact}`);
  return records;
}

export async function sendCommand(args: string[]): Promise<number> {
  const { values, positionals } = usageErrors(() => parseArgs({
    args, allowPositionals: true, strict: true,
    options: { env: { type: 'string' }, 'base-url': { type: 'string' }, json: { type: 'boolean' } },
  }));
  const [kind, file, ...extra] = positionals;
  if (kind !== 'census' && kind !== 'receipt') throw new UsageError('say census or receipt');
  if (!file || extra.length) throw new UsageError('give exactly one JSON file');
  // With --json every outcome is a line on standard output, a failure too (its words are on standard error as well).
  const failed = (message: string, problems?: string[]) => {
    if (values.json) process.stdout.write(`${JSON.stringify({ batch: null, created: null, error: message, ...(problems ? { problems } : {}) })}\n`);
  };
  try {
    return await send(kind, file, values);
  } catch (error) {
    if (error instanceof BatchValidationError) {
      failed(`nothing was sent; ${file} has invalid records`, error.messages);
      process.stderr.write(`nothing was sent; ${file} has invalid records:\n${error.messages.map((m) => `  ${m}`).join('\n')}\n`);
      return EXIT.failure;
    }
    // A wrong command line gets its usage, not a line of results.
    if (!(error instanceof UsageError)) failed((error as Error).message);
    throw error;
  }
}

async function send(kind: 'census' | 'receipt', file: string, values: { env?: string; 'base-url'?: string; json?: boolean }): Promise<number> {
  const records = readRecordsFile(file);
  const ctx = openCliContext();
  const session = await openCliSession(ctx, { env: values.env, baseUrl: values['base-url'], files: false }, createLogger('send'));
  try {
    const result = await session.sendBatch(kind, records);
    if (values.json) {
      const error = result.created ? {} : { error: result.batch.error ?? result.batch.state };
      process.stdout.write(`${JSON.stringify({ batch: result.batch, created: result.created ?? null, ...error })}\n`);
    }
    if (!result.created) {
      // "not sent" would be untrue of a batch the service may hold: its reason says to check before sending again.
      const what = result.batch.state === 'unknown' ? 'outcome unknown' : 'not sent';
      if (!values.json) process.stderr.write(`${what}: ${result.batch.error ?? result.batch.state}\n`);
      return EXIT.failure;
    }
    if (!values.json) process.stdout.write(`sent ${result.created.records} ${kind} record(s): import ${result.created.id} ${result.created.status}\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
