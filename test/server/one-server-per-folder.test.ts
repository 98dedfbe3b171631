/**
 * One local server per data folder: a second one on the same SQLite file would process imports and send webhooks
 * twice. The second start is refused with who holds the folder; once the first stops, the folder is free again.
 */
import { rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createLogger } from '../../electron/lib/logger';
import { LockedError } from '../../electron/lib/process-lock';
import { SERVER_LOCK_FILE } from '../../electron/server/server';
import { eventually, startTestServer, tempDir } from '../helpers/local-server';

it('a second server on the same data folder is refused while the first runs, and starts once it stopped', async () => {
  const dataDir = await tempDir('payroll-one-server-');
  try {
    const first = await startTestServer({ dataDir });
    const refused = await startTestServer({ dataDir }).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(LockedError);
    expect((refused as Error).message).toMatch(new RegExp(`^another local server \\(process ${process.pid} on `));
    expect((await fetch(`${first.url}/local/v1/health`)).status).toBe(200);
    await first.stop();
    const again = await startTestServer({ dataDir });
    expect((await fetch(`${again.url}/local/v1/health`)).status).toBe(200);
    await again.stop();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

it('a start on a data folder another computer\'s server holds says why it waits, and is refused once that one shows it runs', async () => {
  const dataDir = await tempDir('payroll-one-server-');
  try {
    // Another computer's server (a shared data folder), its last heartbeat an hour old by this computer's clock.
    const lock = join(dataDir, SERVER_LOCK_FILE);
    await writeFile(lock, `${JSON.stringify({ pid: 4242, host: 'other-pc', since: '2026-01-01T00:00:00.000Z', what: 'local server' })}\n`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(lock, hourAgo, hourAgo);
    const warnings: string[] = [];
    const logger = createLogger('test-server', (_line, entry) => {
      if (entry.level === 'warn') warnings.push(entry.message);
    });
    const starting = startTestServer({ dataDir, logger }).then(() => undefined, (error: unknown) => error);
    // The wait can last a minute: it is said at once, so the start does not look hung.
    const said = await eventually(() => warnings.find((message) => message.includes('waiting up to')), 10_000);
    expect(said).toMatch(new RegExp(`^the lock file ${lock} says this data folder is used by another local server \\(process 4242 on other-pc\\), but its heartbeat is not recent`));
    // Its heartbeat moves: it runs, and this start is refused.
    const now = new Date();
    await utimes(lock, now, now);
    const refused = await starting;
    expect(refused).toBeInstanceOf(LockedError);
    expect(warnings.filter((message) => message.includes('waiting up to'))).toHaveLength(1);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 60_000);
