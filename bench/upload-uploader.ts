/**
 * The uploader as the app composes it (settings store, API client, upload queue), in the benchmark's own process.
 * Files are handed to the queue as the watcher would hand them once stable, so the stability wait is not timed.
 */
import { mkdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { PreflightMode } from '../shared/settings.schema';
import { createApiClient, type ApiClient } from '../electron/core/api';
import { createUploadQueue, type Job, type StableFile, type UploadQueue } from '../electron/core/queue';
import { createSettingsStore } from '../electron/core/settings';
import { createLogger } from '../electron/lib/logger';
import { timed } from './bench-kit';
import { CLIENT } from './upload-server';

/** Milliseconds from the first add until the last file reached each step (hashing, granting, ..., archived). */
export type Phases = Record<string, number>;

export type BenchUploader = {
  /** Hands every file to the queue at once; resolves with the milliseconds until the last one is archived. */
  run(files: string[]): Promise<{ ms: number; phases: Phases }>;
  stop(): Promise<void>;
};

/** Errors only, so a broken run says why without the benchmark's output drowning in info lines. */
const logger = createLogger('uploader', (line) => {
  if (/ (ERROR|WARN) /.test(line)) process.stderr.write(line);
});

async function stableFile(path: string): Promise<StableFile> {
  const s = await stat(path);
  return { path, name: basename(path), size: s.size, mtimeMs: s.mtimeMs };
}

export async function startUploader(workDir: string, url: string, preflight: PreflightMode): Promise<BenchUploader> {
  const settingsDir = join(workDir, 'settings');
  await mkdir(settingsDir, { recursive: true });
  const store = createSettingsStore({ cwd: settingsDir });
  store.update({ preflight, profiles: { local: { baseUrl: url } } });
  const api: ApiClient = createApiClient({
    baseUrl: url, credentials: () => Promise.resolve({ clientId: CLIENT.id, clientSecret: CLIENT.secret }), proxy: '',
    logger: logger.child('api'),
  });
  // The token is fetched before timing: the baselines hold theirs already too.
  await api.getToken();
  const queue: UploadQueue = createUploadQueue({ dataDir: join(workDir, 'journal'), api, settings: () => store.get(), logger: logger.child('queue') });
  await queue.start();

  return {
    async run(paths) {
      const files = await Promise.all(paths.map(stableFile));
      let fail: (error: Error) => void = () => undefined;
      const pending = new Set<number>();
      const phases: Phases = {};
      const lastState = new Map<number, string>();
      let start = 0;
      const reached = (step: string) => (phases[step] = Math.round(performance.now() - start));
      let done: () => void = () => undefined;
      const finished = new Promise<void>((resolve, reject) => {
        done = resolve;
        fail = reject;
      });
      const onResult = (job: Job) => {
        if (!pending.has(job.id)) return;
        if (job.state !== 'uploaded') return fail(new Error(`${job.name} ended ${job.state}: ${job.lastError ?? ''}`));
        reached('archived');
        pending.delete(job.id);
        if (pending.size === 0) done();
      };
      // A healthy run never waits: the local server has no outages, so a retry means the benchmark is broken.
      const onJob = (job: Job) => {
        if (pending.has(job.id) && lastState.get(job.id) !== job.state) {
          lastState.set(job.id, job.state);
          reached(job.state);
        }
        if (job.state === 'waiting' && pending.has(job.id)) fail(new Error(`${job.name} is waiting to retry: ${job.lastError ?? ''}`));
      };
      queue.on('result', onResult);
      queue.on('job', onJob);
      try {
        start = performance.now();
        const { ms } = await timed(async () => {
          for (const file of files) {
            const job = queue.add(file);
            if (!job) throw new Error(`${file.name} was not taken by the queue`);
            pending.add(job.id);
          }
          await finished;
        });
        return { ms, phases };
      } finally {
        queue.off('result', onResult);
        queue.off('job', onJob);
      }
    },
    async stop() {
      await queue.stop();
      api.close();
    },
  };
}
