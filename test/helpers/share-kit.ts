/**
 * Real parts for tests of a watched folder on a network share that drops: a queue fed by the folder's real claims, as
 * the desktop's uploader runs them (uploader-part.ts), and a share's mount point whose claim folder does not answer.
 * The share's drop is the watched folder (or its claim folder) renamed away: every path in it then answers ENOENT, as
 * an unmounted share does.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLAIMS_FOLDER, createFolderClaims, type FolderClaims } from '../../electron/core/queue/folder-claims';
import type { UploadQueue } from '../../electron/core/queue/upload-queue';
import { createLogger, type LogEntry } from '../../electron/lib/logger';
import { tempDir } from './local-server';
import type { QueueEnv } from './queue-kit';

/** The claims of every run started, stopped by stopClaimedRuns (in afterEach). */
const started: FolderClaims[] = [];

export async function stopClaimedRuns(): Promise<void> {
  await Promise.all(started.splice(0).map((claims) => claims.stop()));
}

/** A run as the desktop's: the queue, and the claims of the watched folder feeding it; what it logs and says. */
export async function claimedRun(e: QueueEnv) {
  const logs: LogEntry[] = [];
  const errors: string[] = [];
  const notices: string[] = [];
  const adopted: string[] = [];
  const folderClaims = createFolderClaims({ dataDir: e.dataDir, logger: createLogger('claims', () => undefined), timeoutMs: 1000 });
  started.push(folderClaims);
  const queue: UploadQueue = e.queue({
    logger: createLogger('test-queue', (_line, entry) => logs.push(entry)),
    takenOver: (job) => folderClaims.takenOver(job.path),
  });
  queue.on('error', (error) => errors.push(error.message));
  queue.on('notice', (notice) => notices.push(typeof notice === 'string' ? notice : notice.message));
  await queue.start();
  await folderClaims.watch(e.folder, (file) => {
    adopted.push(file.name);
    queue.add(file);
  }, (path) => queue.knows(path));
  /** Claims a file written into the watched folder and queues it, as the watcher's `stable` does. */
  const drop = async (name: string, content: string) => {
    const claimed = await folderClaims.claim(await e.write(name, content));
    return queue.add(claimed!)!;
  };
  return { queue, folderClaims, logs, errors, notices, adopted, drop };
}

/**
 * A share's mount point holding a claim folder `.processing/desk-1/` with `census.csv` ("data") in it. Unmounted, a
 * share's mount point is an empty folder of the local disk: `unmount` takes the claim folder away (the mount point
 * still answers, the claim folder does not), `mount` brings it back, `remove` ends it all.
 */
export async function shareMountPoint() {
  const share = await tempDir('queue-share-');
  const claimFolder = join(share, CLAIMS_FOLDER, 'desk-1');
  await mkdir(claimFolder, { recursive: true });
  const file = join(claimFolder, 'census.csv');
  await writeFile(file, 'data');
  const away = `${share}-processing-unmounted`;
  return {
    share, claimFolder, file,
    unmount: () => rename(join(share, CLAIMS_FOLDER), away),
    mount: () => rename(away, join(share, CLAIMS_FOLDER)),
    remove: () => rm(share, { recursive: true, force: true }),
  };
}
