/** Real parts for upload-queue tests: a local server, an API client, a watched folder and a queue data folder. */
import { createHash } from 'node:crypto';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { StartOptions } from '../../electron/server/server';
import { createApiClient, type ApiClient } from '../../electron/core/api';
import { createUploadQueue, type Job, type StableFile, type UploadQueue, type UploadQueueOptions } from '../../electron/core/queue';
import { requestLog } from '../../electron/server/local/request-log';
import { createLogger } from '../../electron/lib/logger';
import { settingsSchema, type Settings, type SettingsInput } from '../../shared';
import { TEST_CLIENT, eventually, startTestServer, tempDir, type TestServer } from './local-server';

export const CENSUS_HEADER = 'lastName,firstName,employeeRegistration,hireDate,employeeStatus';
export const RECEIPT_HEADER = 'lastName,firstName,ssn,employeeRegistration,paymentDate,amount';

/** A census CSV whose rows are unique per `seed` (so each file has its own checksum). */
export function censusCsv(seed: string, rows = 2): string {
  const lines = [CENSUS_HEADER];
  for (let i = 0; i < rows; i += 1) lines.push(`Doe,Jane,${seed}-${i},2020-01-31,ACTIVE`);
  return `${lines.join('\n')}\n`;
}

export function receiptCsv(seed: string, registration = 'E1'): string {
  return `${RECEIPT_HEADER}\nDoe,Jane,123-45-6789,${registration},2026-01-31,${seed}.25\n`;
}

export const md5Of = (content: string | Buffer) => createHash('md5').update(content).digest('hex');

export type QueueEnv = {
  server: TestServer;
  api: ApiClient;
  /** The watched folder. */
  folder: string;
  dataDir: string;
  settings: Settings;
  /** Writes a file into the watched folder and returns it as the watcher would report it. */
  write(name: string, content: string | Buffer): Promise<StableFile>;
  /** A queue on this env's journal (a second call after stop() is a restart). */
  queue(extra?: Partial<UploadQueueOptions>): UploadQueue;
  /** Waits until the job is archived (or its file found gone), then returns it. */
  finished(queue: UploadQueue, id: number): Promise<Job>;
  /** Every file under the watched folder, as relative paths. */
  tree(): Promise<string[]>;
  /** Server file rows of a checksum. */
  serverFiles(md5: string): { status: string; import_id: string; file_name: string }[];
  /** Requests in the server's request log whose path matches a SQL LIKE pattern. */
  requests(pattern: string): { method: string; path: string; status: number }[];
  close(): Promise<void>;
};

/** Fast retries so the tests are not slowed by the production backoff (1 s .. 5 min). */
export const FAST_RETRY = { baseMs: 20, maxMs: 200 };

export async function startQueueEnv(
  server: Partial<StartOptions> = {}, settingsInput: SettingsInput = {},
): Promise<QueueEnv> {
  const srv = await startTestServer(server);
  const folder = await tempDir('queue-folder-');
  const dataDir = await tempDir('queue-data-');
  const api = createApiClient({
    baseUrl: srv.url, proxy: '', retry: { retries: 3, baseDelayMs: 5, maxDelayMs: 50 },
    credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
    logger: createLogger('test-api', () => undefined),
  });
  const settings = settingsSchema.parse(settingsInput);
  const queues: UploadQueue[] = [];
  return {
    server: srv, api, folder, dataDir, settings,
    async write(name, content) {
      const path = join(folder, name);
      await writeFile(path, content);
      const info = await stat(path);
      return { path, name, size: info.size, mtimeMs: info.mtimeMs };
    },
    queue(extra = {}) {
      const q = createUploadQueue({
        dataDir, api, settings: () => settings, retry: FAST_RETRY,
        logger: createLogger('test-queue', () => undefined), ...extra,
      });
      queues.push(q);
      return q;
    },
    async finished(queue, id) {
      return eventually(() => {
        const job = queue.job(id);
        return job?.archivedAt !== undefined ? job : undefined;
      }, 30_000);
    },
    async tree() {
      const entries = await readdir(folder, { recursive: true, withFileTypes: true });
      return entries.filter((e) => !e.isDirectory()).map((e) => relative(folder, join(e.parentPath, e.name))).sort();
    },
    serverFiles(md5) {
      return srv.ctx.db.prepare('SELECT status, import_id, file_name FROM files WHERE checksum = ?').all(md5) as
        { status: string; import_id: string; file_name: string }[];
    },
    requests(pattern) {
      requestLog(srv.ctx)?.flush();
      return srv.ctx.db.prepare('SELECT method, path, status FROM request_log WHERE path LIKE ? ORDER BY id').all(pattern) as
        { method: string; path: string; status: number }[];
    },
    async close() {
      for (const q of queues) await q.stop();
      api.close();
      await srv.stop();
      await rm(folder, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
