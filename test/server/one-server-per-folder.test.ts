/**
 * One local server per data folder: a second one on the same SQLite file would process imports and send webhooks
 * twice. The second start is refused with who holds the folder; once the first stops, the folder is free again.
 */
import { rm } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { LockedError } from '../../electron/lib/process-lock';
import { startTestServer, tempDir } from '../helpers/local-server';

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
