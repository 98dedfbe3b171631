/**
 * Several desktops, one export folder (docs/service-decisions.md §9): before a file is read, its uploader claims it
 * by renaming it into `<folder>/.processing/<owner>/`. A rename is atomic inside one folder tree, on a network share
 * too, so exactly one uploader gets each file. Each uploader renews its claim folder's mtime (a heartbeat); the
 * claims of an uploader whose heartbeat has not moved for `timeoutMs` (as seen on this machine's clock, so clocks
 * that differ between machines do not matter) are taken over, so a machine that dies holding claims loses nothing.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, rename, rmdir, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describeError, errorCode } from '../../lib/fs-errors';
import type { Logger } from '../../lib/logger';
import { identityOf, type StableFile } from '../watcher/stable-file';
import { suffixedName } from './archive';
import { printableName } from '../../lib/printable-name';

export const CLAIMS_FOLDER = '.processing';
export const DEFAULT_CLAIM_TIMEOUT_MS = 120_000;

/** This installation's name in `.processing/`: the host name and a short hash of its data folder (two users of one machine differ). */
export function claimOwner(dataDir: string, host = hostname()): string {
  const safeHost = host.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 60) || 'host';
  // Resolved: `/x/d`, `/x/d/` and `d` from /x are one data folder, so one uploader, which must not take its own
  // claims over as another's.
  return `${safeHost}-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 8)}`;
}

export type FolderClaims = {
  readonly owner: string;
  /**
   * Claims a stable file: moves it into this uploader's claim folder. Undefined when it is no longer there (another
   * uploader claimed it first, or the user moved it).
   */
  claim(file: StableFile): Promise<StableFile | undefined>;
  /**
   * Starts the heartbeat of `folder`'s claim folder and the watch for stale claims. Files found in our own claim
   * folder that `isKnown` does not know (a crash between claim and journal) and files taken over from a dead
   * uploader are handed to `onFile`, already claimed.
   */
  watch(folder: string, onFile: (file: StableFile) => void, isKnown: (path: string) => boolean): Promise<void>;
  /** Stops the heartbeat; an empty claim folder is removed. */
  stop(): Promise<void>;
};

export type FolderClaimsOptions = { dataDir: string; logger: Logger; timeoutMs?: number; host?: string };

type Watched = { folder: string; timer: NodeJS.Timeout; others: Map<string, { mtimeMs: number; since: number }>; busy?: Promise<void> };

export function createFolderClaims(options: FolderClaimsOptions): FolderClaims {
  const owner = claimOwner(options.dataDir, options.host);
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLAIM_TIMEOUT_MS;
  const beatMs = Math.max(250, Math.min(10_000, Math.floor(timeoutMs / 4)));
  const { logger } = options;
  const watched = new Map<string, Watched>();
  const mineIn = (folder: string) => join(folder, CLAIMS_FOLDER, owner);

  /**
   * Makes `<folder>/.processing/<owner>` inside the folder as it is, never the folder itself: a watched folder
   * renamed or removed must stay missing (and be shown so), not come back empty while the exports sit elsewhere.
   * ENOENT when the folder is missing.
   */
  const makeClaimDir = async (folder: string): Promise<string> => {
    const dir = mineIn(folder);
    for (const each of [join(folder, CLAIMS_FOLDER), dir]) {
      await mkdir(each).catch((error: unknown) => {
        if (errorCode(error) !== 'EEXIST') throw error;
      });
    }
    return dir;
  };
  /** True once the claim folder is there; false while the watched folder is missing. */
  const claimDirIn = (folder: string): Promise<boolean> =>
    makeClaimDir(folder).then(() => true, (error: unknown) => {
      if (errorCode(error) === 'ENOENT') return false;
      throw error;
    });

  /** A name free in our own claim folder: only this uploader writes there, so looking first is safe. */
  const freeName = async (dir: string, name: string): Promise<string> => {
    for (let n = 0; ; n += 1) {
      const candidate = join(dir, suffixedName(name, n));
      try {
        await lstat(candidate);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return candidate;
        throw error;
      }
    }
  };

  const moveIn = async (from: string, folder: string, name: string, claimedFrom: string): Promise<StableFile | undefined> => {
    const dir = await makeClaimDir(folder);
    const target = await freeName(dir, name);
    try {
      await rename(from, target);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
    const info = await lstat(target);
    return { path: target, name, size: info.size, mtimeMs: info.mtimeMs, identity: identityOf(info), claimedFrom };
  };

  const adoptOwn = async (folder: string, onFile: (file: StableFile) => void, isKnown: (path: string) => boolean) => {
    const dir = mineIn(folder);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (isKnown(path)) continue;
      const info = await lstat(path).catch(() => undefined);
      if (!info) continue;
      logger.info(`${printableName(entry.name)}: claimed before the last stop but not journaled; taking it up`);
      onFile({ path, name: entry.name, size: info.size, mtimeMs: info.mtimeMs, identity: identityOf(info), claimedFrom: join(folder, entry.name) });
    }
  };

  const takeOverStale = async (w: Watched, onFile: (file: StableFile) => void) => {
    const root = join(w.folder, CLAIMS_FOLDER);
    const owners = await readdir(root, { withFileTypes: true }).catch(() => []);
    const now = performance.now();
    for (const entry of owners) {
      if (!entry.isDirectory() || entry.name === owner) continue;
      const dir = join(root, entry.name);
      const info = await stat(dir).catch(() => undefined);
      if (!info) continue;
      const seen = w.others.get(entry.name);
      if (!seen || seen.mtimeMs !== info.mtimeMs) {
        w.others.set(entry.name, { mtimeMs: info.mtimeMs, since: now });
        continue;
      }
      if (now - seen.since < timeoutMs) continue;
      const files = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const file of files) {
        if (file.isDirectory()) continue;
        const taken = await moveIn(join(dir, file.name), w.folder, file.name, join(w.folder, file.name));
        if (taken) {
          logger.warn(`${printableName(file.name)}: taken over from the uploader "${entry.name}", silent for ${Math.round(timeoutMs / 1000)} s`);
          onFile(taken);
        }
      }
      await rmdir(dir).catch(() => undefined);
      w.others.delete(entry.name);
    }
  };

  return {
    owner,
    claim(file) {
      return moveIn(file.path, dirname(file.path), file.name, file.path);
    },
    async watch(folder, onFile, isKnown) {
      if (watched.has(folder)) return;
      // A folder missing now has no claims of ours to adopt; the heartbeat makes the claim folder once it is back.
      if (await claimDirIn(folder)) await adoptOwn(folder, onFile, isKnown);
      const w: Watched = {
        folder, others: new Map(),
        timer: setInterval(() => {
          if (w.busy) return;
          const now = new Date();
          w.busy = utimes(mineIn(folder), now, now)
            .then(() => true, () => claimDirIn(folder))
            .then((present) => (present ? takeOverStale(w, onFile) : undefined))
            .catch((error: unknown) => logger.warn(`checking the claims in ${folder} failed: ${describeError(error)}`))
            .finally(() => {
              w.busy = undefined;
            });
        }, beatMs),
      };
      watched.set(folder, w);
    },
    async stop() {
      for (const w of watched.values()) {
        clearInterval(w.timer);
        await w.busy;
        await rmdir(mineIn(w.folder)).catch(() => undefined);
        await rmdir(join(w.folder, CLAIMS_FOLDER)).catch(() => undefined);
      }
      watched.clear();
    },
  };
}
