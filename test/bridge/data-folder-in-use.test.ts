/**
 * The app opened on a data folder another uploader uses (a `payroll-uploader watch` left running, say): the screens
 * that need the upload journal are told so, in words naming that uploader and what to do, not "internal error".
 * A real lock held on the data folder, a real session through the bridge handlers.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../electron/core/queue/upload-queue';
import { acquireProcessLock, type ProcessLock } from '../../electron/lib/process-lock';
import { tempDir } from '../helpers/local-server';
import { startUiEngine, type UiEngine } from '../helpers/ui-engine';

describe('a data folder another uploader uses', () => {
  let engine: UiEngine;
  let lock: ProcessLock;

  beforeAll(async () => {
    const dataDir = await tempDir('payroll-in-use-');
    lock = await acquireProcessLock(join(dataDir, LOCK_FILE), 'uploader');
    engine = await startUiEngine({ dataDir, settings: { profiles: { sandbox: { baseUrl: 'http://127.0.0.1:9' } }, activeProfile: 'sandbox' } });
  }, 60_000);
  afterAll(async () => {
    await engine?.stop();
    await lock?.release();
  });

  it('answers History and Send records with a conflict naming the other uploader, not an internal error', async () => {
    for (const [method, request] of [['jobs.query', {}], ['batches.list', {}]] as const) {
      const reply = await engine.handlers.call(method, request);
      expect(reply).toMatchObject({ ok: false, error: { code: 'conflict' } });
      if (!reply.ok) expect(reply.error.message).toMatch(/another uploader \(process \d+ on .+\) already uses this data folder; stop it first/);
    }
  });
});
