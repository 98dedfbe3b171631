/**
 * The world of the tests of a data disk that fills while the app runs: an engine (the core session and the UI server,
 * as `payroll-uploader ui` runs them) whose data folder is on a real 2 MB disk, watching a real folder and uploading to
 * a real local server, with a private keychain; the windows' event stream is read from the start, and the watch is on.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startKeyring } from './keyring';
import { TEST_CLIENT, startTestServer, tempDir, type TestServer } from './local-server';
import { mountSmallDisk, type SmallDisk } from './small-disk';
import { readSse, type SseReader } from './sse';
import { callOk, startUiEngine, type UiEngine } from './ui-engine';

export type FullDiskWorld = {
  server: TestServer;
  engine: UiEngine;
  /** The bridge's Server-Sent Events, as a window gets them. */
  stream: SseReader;
  /** The disk under the data folder. */
  disk: SmallDisk;
  watched: string;
  close(): Promise<void>;
};

export async function startFullDiskWorld(): Promise<FullDiskWorld> {
  const keyring = await startKeyring();
  Object.assign(process.env, keyring.env);
  const closing: (() => Promise<unknown>)[] = [() => keyring.stop()];
  const close = async () => {
    for (const step of closing.reverse()) await step();
  };
  try {
    const server = await startTestServer();
    closing.push(() => server.stop());
    const disk = await mountSmallDisk('2m', { prefix: 'payroll-full-disk-' });
    closing.push(() => disk.remove());
    const watched = await tempDir('payroll-full-disk-watched-');
    closing.push(() => rm(watched, { recursive: true, force: true }));
    const dataDir = join(disk.path, 'data');
    await mkdir(dataDir);
    const engine = await startUiEngine({
      dataDir,
      settings: { activeProfile: 'sandbox', profiles: { sandbox: { baseUrl: server.url } }, watchedFolder: watched, stabilityMs: 200, sweepIntervalMs: 1000 },
      env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
    });
    closing.push(() => engine.stop());
    const stream = await readSse(`${engine.server.origin}/bridge/events`, { authorization: `Bearer ${engine.server.token}` });
    closing.push(() => Promise.resolve(stream.close()));
    await callOk(engine, 'watch.start');
    return { server, engine, stream, disk, watched, close };
  } catch (error) {
    await close();
    throw error;
  }
}
