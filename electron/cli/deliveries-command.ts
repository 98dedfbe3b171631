/** `payroll-uploader deliveries`: the webhook delivery audit, as a table or JSON. */
import { parseArgs } from 'node:util';
import type { DeliveryAttempt } from '../../shared';
import { createLogger } from '../lib/logger';
import { openCliContext, usageErrors } from './cli-context';
import { openCliSession } from './cli-session';
import { EXIT, UsageError } from './usage-error';

export const DELIVERIES_USAGE = `Usage: payroll-uploader deliveries [--env E] [--base-url URL] [--status 1|2|3|PENDING|SUCCESS|FAILED] [--max-retries N] [--limit N] [--id N] [--json]

  Lists the service's webhook delivery attempts, newest first (status 1 PENDING, 2 SUCCESS, 3 FAILED;
  --max-retries N, 0..5, keeps attempts whose retry count (the RETRIES column: 0 for a first attempt, and for a
  retry the retries so far, itself included) is at most N, so 0 lists first attempts only;
  --limit 1..1000, default 100), or one attempt with --id.`;

const TYPE = { 1: 'NEW', 2: 'RETRY' } as const;
const STATUS = { 1: 'PENDING', 2: 'SUCCESS', 3: 'FAILED' } as const;

function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
  }
  return Number(value);
}

/** `--status 1|2|3` or its name (`PENDING`, `SUCCESS`, `FAILED`, any case). */
function statusOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const byName = Object.entries(STATUS).find(([, name]) => name === value.toUpperCase());
  if (byName) return Number(byName[0]);
  if (/^[123]$/.test(value)) return Number(value);
  throw new UsageError(`--status must be 1 (PENDING), 2 (SUCCESS) or 3 (FAILED), or one of those names, not "${value}"`);
}

export function deliveriesTable(items: DeliveryAttempt[]): string {
  const rows = [['ID', 'TYPE', 'STATUS', 'HTTP', 'MS', 'RETRIES', 'CREATED (UTC)', 'EVENT', 'WHY IT FAILED']];
  for (const d of items) {
    rows.push([
      String(d.id), TYPE[d.type], STATUS[d.status], d.httpStatusCode === null ? '-' : String(d.httpStatusCode), String(d.durationMs),
      String(d.attemptCount), d.createdAt, d.eventType, d.failure ?? '',
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export async function deliveriesCommand(args: string[]): Promise<number> {
  const { values } = usageErrors(() => parseArgs({
    args, strict: true, allowPositionals: false,
    options: {
      env: { type: 'string' }, 'base-url': { type: 'string' }, status: { type: 'string' }, 'max-retries': { type: 'string' },
      limit: { type: 'string' }, id: { type: 'string' }, json: { type: 'boolean' },
    },
  }));
  // Every flag is checked before anything is sent: a bad value is a usage error (exit 2), not the service's 400.
  const id = wholeNumber('--id', values.id, 1, Number.MAX_SAFE_INTEGER);
  const filter = {
    status: statusOf(values.status),
    maxRetries: wholeNumber('--max-retries', values['max-retries'], 0, 5),
    limit: wholeNumber('--limit', values.limit, 1, 1000),
  };
  if (id !== undefined && (filter.status !== undefined || filter.maxRetries !== undefined || filter.limit !== undefined)) {
    throw new UsageError('--id shows one attempt: it does not go with --status, --max-retries or --limit');
  }
  const ctx = openCliContext();
  const session = await openCliSession(ctx, { env: values.env, baseUrl: values['base-url'] }, createLogger('deliveries'));
  try {
    const items = id !== undefined ? [await session.getDelivery(id)] : await session.listDeliveries(filter);
    if (values.json) process.stdout.write(`${JSON.stringify(id !== undefined ? items[0] : items)}\n`);
    else process.stdout.write(items.length ? `${deliveriesTable(items)}\n` : 'no delivery attempts\n');
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
