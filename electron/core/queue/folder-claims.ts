/**
 * Several desktops, one export folder (docs/service-decisions.md §9): before a file is read, its uploader claims it
 * by renaming it into `<folder>/.processing/<owner>/`. A rename is atomic inside one folder tree, on a network share
 * too, so exactly one uploader gets each file. Each uploader renews its claim folder's mtime (a heartbeat); the
 * claims of an uploader whose heartbeat has not moved for `timeoutMs` (as seen on this machine's clock, so clocks
 * that differ between machines do not matter) are taken over, so a machine that dies holding claims loses nothing.
 *
 * Each claim records the service (base URL) and client it was claimed for, in `<owner>/.claims/<name>` (written
 * before the file is moved in): another uploader takes over only claims made for its own service and client, since a
 * job is only ever sent there, as that client. A claim taken over keeps its record, marked with the taker, so the
 * silent uploader, back again, can tell that file from one that disappeared.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, lstat, readFile, readdir, rename, rm, rmdir, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { makeFolderIn, sharedFileModeIn } from '../../lib/folder-access';
import { describeError, errorCode, isDenied } from '../../lib/fs-errors';
import { createHeartbeatWatch, type HeartbeatWatch } from '../../lib/heartbeat-watch';
import type { Logger } from '../../lib/logger';
import { listingDenied } from '../watcher/folder-listing';
import { identityOf, type StableFile } from '../watcher/stable-file';
import { suffixedName } from './archive';
import { printableName, printableText } from '../../lib/printable-name';
import { CLAIMS_FOLDER, claimProblem } from './claim-errors';

export { CLAIMS_FOLDER };
/** Inside an owner's claim folder: one record per claimed file, of the same name (a dot name is never a candidate). */
export const CLAIM_RECORDS = '.claims';
export const DEFAULT_CLAIM_TIMEOUT_MS = 120_000;

/** This installation's name in `.processing/`: the host name and a short hash of its data folder (two users of one machine differ). */
export function claimOwner(dataDir: string, host = hostname()): string {
  const safeHost = host.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 60) || 'host';
  // Resolved: `/x/d`, `/x/d/` and `d` from /x are one data folder, so one uploader, which must not take its own
  // claims over as another's.
  return `${safeHost}-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 8)}`;
}

/** The service a claim is made for: only an uploader sending there, as that client, may take it over. */
export type ClaimService = { baseUrl: string; clientId?: string; profile?: string };
/** What `<owner>/.claims/<name>` holds; `takenOverBy`: the uploader that took the file over. */
type ClaimRecord = ClaimService & { takenOverBy?: string };

const recordOf = (claimed: string) => join(dirname(claimed), CLAIM_RECORDS, basename(claimed));
const parseRecord = (text: string): ClaimRecord | undefined => {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || typeof (value as ClaimRecord).baseUrl !== 'string') return undefined;
    return value as ClaimRecord;
  } catch {
    return undefined;
  }
};
/** The record of a claimed file; undefined when there is none (a claim of an older version) or it cannot be read. */
const readRecord = (claimed: string): Promise<ClaimRecord | undefined> =>
  readFile(recordOf(claimed), 'utf8').then(parseRecord, () => undefined);
/**
 * Writes a claim's record under a temporary name, then renames it into place: the uploader that takes a claim over
 * marks the record of another account's claim, which it may replace in a shared claim folder but not write into;
 * and a record is never seen half written. Readable by the group of a shared folder: the uploaders of the other
 * clerks read it to know whether the claim is theirs to take over.
 */
const TEMPORARY_SUFFIX = '.tmp';
/** writeRecord's temporary name of a record not renamed into place yet. */
const TEMPORARY_RECORD = /^\.[0-9a-f]{12}\.tmp$/;
const writeRecord = async (claimed: string, record: ClaimRecord): Promise<void> => {
  const records = dirname(recordOf(claimed));
  await makeFolderIn(records);
  // A dot name is never a claimed file's, so never taken for a record (the tidy-up passes it by; one a crash left
  // between the write and the rename goes at the uploader's next start, or when another takes its claims over).
  const temp = join(records, `.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`);
  try {
    await writeFile(temp, `${JSON.stringify(record)}\n`, { flag: 'wx', mode: 0o600 });
    // Set exactly: writeFile's mode is filtered by the umask.
    await chmod(temp, await sharedFileModeIn(records));
    await rename(temp, recordOf(claimed));
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
};
/** Whether `path` is a folder now (through links, as the watcher sees it). */
const isFolder = (path: string): Promise<boolean> => stat(path).then((info) => info.isDirectory(), () => false);
const sameService = (a: ClaimService, b: ClaimService) => a.baseUrl === b.baseUrl && (a.clientId ?? '') === (b.clientId ?? '');
/** A service as the clerk reads it: its address and client. */
const serviceWords = (s: ClaimService) => `${s.baseUrl}${s.clientId ? ` as client ${s.clientId}` : ' (no client id)'}`;

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
  /**
   * The uploader that took over our claimed file at `path` while we were stopped or silent (its claim record says
   * so), or undefined: the file is simply gone. Synchronous: asked by the queue when it finds a file gone.
   */
  takenOver(path: string): string | undefined;
};

export type FolderClaimsOptions = {
  dataDir: string;
  logger: Logger;
  timeoutMs?: number;
  host?: string;
  /**
   * The service our claims are made for (recorded with each), and the only one whose claims we take over. Absent:
   * claims are made without a record and nothing is taken over.
   */
  service?: ClaimService;
  /** Says a sentence to the clerk once (claims of a silent uploader left in place for its own service). */
  say?: (message: string) => void;
};

type Watched = {
  folder: string;
  timer: NodeJS.Timeout;
  /** The heartbeats of the other uploaders' claim folders, by owner. */
  others: HeartbeatWatch;
  isKnown: (path: string) => boolean;
  busy?: Promise<void>;
  /** Why the last heartbeat failed: logged when it changes, not at every beat. */
  failing?: string;
};

export function createFolderClaims(options: FolderClaimsOptions): FolderClaims {
  const owner = claimOwner(options.dataDir, options.host);
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLAIM_TIMEOUT_MS;
  const beatMs = Math.max(250, Math.min(10_000, Math.floor(timeoutMs / 4)));
  const { logger, service } = options;
  const watched = new Map<string, Watched>();
  /** Claims being made: their record is written, the file not moved in yet (the tidy-up must leave the record). */
  const making = new Set<string>();
  /** The claims of others left in place, said once (owner/name). */
  const saidLeft = new Set<string>();
  const mineIn = (folder: string) => join(folder, CLAIMS_FOLDER, owner);

  /**
   * Makes `<folder>/.processing/<owner>` inside the folder as it is, never the folder itself: a watched folder
   * renamed or removed must stay missing (and be shown so), not come back empty while the exports sit elsewhere.
   * ENOENT when the folder is missing. Both take the access of the watched folder's group when it is shared with its
   * group (folder-access.ts): the uploaders of other accounts of that group make their own claim folders in
   * `.processing`, and take the files of one that went silent out of its claim folder.
   */
  const makeClaimDir = async (folder: string): Promise<string> => {
    const dir = mineIn(folder);
    for (const each of [join(folder, CLAIMS_FOLDER), dir]) await makeFolderIn(each);
    return dir;
  };
  /**
   * True once the claim folder is there; false while the watched folder is missing, is no folder (a file's path typed
   * for it), or this user may not list it (the watcher says that once, in words a clerk can act on, and waits for it:
   * the heartbeat makes the claim folder then). A file named `.processing` in the folder is the claims' own problem.
   */
  const claimDirIn = (folder: string): Promise<boolean> =>
    makeClaimDir(folder).then(() => true, async (error: unknown) => {
      if (errorCode(error) === 'ENOENT') return false;
      if (errorCode(error) === 'ENOTDIR' && !(await isFolder(folder))) return false;
      if (isDenied(error) && await listingDenied(folder) !== undefined) return false;
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
    making.add(target);
    try {
      // The record first: a claim never exists without it (a crash in between leaves only a record, tidied up).
      if (service) await writeRecord(target, { baseUrl: service.baseUrl, ...(service.clientId !== undefined ? { clientId: service.clientId } : {}), ...(service.profile !== undefined ? { profile: service.profile } : {}) });
      await rename(from, target);
    } catch (error) {
      await rm(recordOf(target), { force: true }).catch(() => undefined);
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    } finally {
      making.delete(target);
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
      // Claimed by this data folder for another service (the session changed service): the run for that one takes it.
      const record = await readRecord(path);
      if (record && service && !sameService(record, service)) continue;
      logger.info(`${printableName(entry.name)}: claimed before the last stop but not journaled; taking it up`);
      onFile({ path, name: entry.name, size: info.size, mtimeMs: info.mtimeMs, identity: identityOf(info), claimedFrom: join(folder, entry.name) });
    }
  };

  const takeOverStale = async (w: Watched, onFile: (file: StableFile) => void) => {
    const root = join(w.folder, CLAIMS_FOLDER);
    const owners = await readdir(root, { withFileTypes: true }).catch(() => []);
    for (const entry of owners) {
      if (!entry.isDirectory() || entry.name === owner) continue;
      const dir = join(root, entry.name);
      const info = await stat(dir).catch(() => undefined);
      if (!info) continue;
      if (w.others.stillFor(entry.name, info.mtimeMs) < timeoutMs) continue;
      const files = await readdir(dir, { withFileTypes: true }).catch(() => []);
      /** Files left in place, by the words for the service they were claimed for. */
      const left = new Map<string, string[]>();
      for (const file of files) {
        if (file.isDirectory()) continue;
        const from = join(dir, file.name);
        const record = await readRecord(from);
        // Only a claim made for our service, as our client, is ours to send. A claim without a record (an older
        // version made it) might be for any service: it is left too, for its uploader or the clerk.
        if (!service || !record || !sameService(record, service)) {
          const words = record
            ? `for ${serviceWords(record)}, and this uploader sends only to ${service ? serviceWords(service) : 'no service yet'}`
            : 'with an older version, which did not record for which service';
          left.set(words, [...(left.get(words) ?? []), file.name]);
          continue;
        }
        const taken = await moveIn(from, w.folder, file.name, join(w.folder, file.name));
        if (taken) {
          // The silent uploader, back again, learns from its record that the file was taken over, not lost.
          await writeRecord(from, { ...record, takenOverBy: owner }).catch((error: unknown) => {
            logger.warn(`${printableName(file.name)}: the note that it was taken over could not be left for "${entry.name}": ${describeError(error)}`);
          });
          logger.warn(`${printableName(file.name)}: taken over from the uploader "${entry.name}", silent for ${Math.round(timeoutMs / 1000)} s`);
          onFile(taken);
        }
      }
      sayLeft(dir, entry.name, left);
      // Records of files the silent uploader filed away itself are of no use to anyone; marked ones wait for it.
      await tidyRecords(dir, () => true, true);
      await rmdir(join(dir, CLAIM_RECORDS)).catch(() => undefined);
      await rmdir(dir).catch(() => undefined);
      w.others.forget(entry.name);
    }
  };

  /** Says once which files of a silent uploader wait for it, and why this one leaves them. */
  const sayLeft = (dir: string, other: string, left: Map<string, string[]>) => {
    for (const [words, names] of left) {
      const fresh = names.filter((name) => !saidLeft.has(`${other}/${name}`));
      if (fresh.length === 0) {
        logger.debug(`${names.length} file(s) still wait in ${printableText(dir)} for the uploader "${other}"`);
        continue;
      }
      for (const name of fresh) saidLeft.add(`${other}/${name}`);
      const shown = fresh.slice(0, 5).map(printableName).join(', ') + (fresh.length > 5 ? ', ...' : '');
      const message = `${fresh.length} file(s) (${shown}) wait in ${printableText(dir)}: the uploader "${other}", silent for `
        + `${Math.round(timeoutMs / 1000)} s, claimed them ${words}, so it leaves them there. They are sent when that `
        + 'uploader runs again; to send them from here instead, move them back into the watched folder.';
      logger.warn(message);
      options.say?.(message);
    }
  };

  /**
   * Removes the records in `dir` whose file is no longer there (filed away, given back to the folder), except one
   * marked taken over while `keepMarked` says its job is still open (the queue reads it when it finds the file gone).
   * `ofSilent`: no record is being written in `dir` (the claim folder of an uploader silent for the claim timeout, or
   * our own before this run claims anything in it), so one under writeRecord's temporary dot name was cut off by its
   * writer's end (a kill between the write and the rename) and goes too.
   */
  const tidyRecords = async (dir: string, keepMarked: (path: string) => boolean, ofSilent = false) => {
    const records = await readdir(join(dir, CLAIM_RECORDS)).catch(() => []);
    for (const name of records) {
      // A record being written (writeRecord's temporary dot name) is not one yet.
      if (name.startsWith('.')) {
        if (ofSilent && TEMPORARY_RECORD.test(name)) await rm(join(dir, CLAIM_RECORDS, name), { force: true }).catch(() => undefined);
        continue;
      }
      const path = join(dir, name);
      if (making.has(path) || (await lstat(path).then(() => true, () => false))) continue;
      const record = await readRecord(path);
      if (record?.takenOverBy !== undefined && keepMarked(path)) continue;
      await rm(recordOf(path), { force: true }).catch(() => undefined);
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
      if (await claimDirIn(folder)) {
        await adoptOwn(folder, onFile, isKnown);
        // Before this run claims anything here: a temporary record is an earlier run's, cut off by its end.
        await tidyRecords(mineIn(folder), isKnown, true);
      }
      const w: Watched = {
        folder, others: createHeartbeatWatch(), isKnown,
        timer: setInterval(() => {
          if (w.busy) return;
          const now = new Date();
          w.busy = utimes(mineIn(folder), now, now)
            .then(() => true, () => claimDirIn(folder))
            .then(async (present) => {
              if (!present) return;
              await tidyRecords(mineIn(folder), isKnown);
              await takeOverStale(w, onFile);
              w.failing = undefined;
            })
            .catch((error: unknown) => {
              const problem = `checking the claims in ${printableText(folder)} failed: ${claimProblem(folder, error)}`;
              if (problem === w.failing) logger.debug(problem);
              else logger.warn(problem);
              w.failing = problem;
            })
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
        await tidyRecords(mineIn(w.folder), w.isKnown);
        await rmdir(join(mineIn(w.folder), CLAIM_RECORDS)).catch(() => undefined);
        await rmdir(mineIn(w.folder)).catch(() => undefined);
        await rmdir(join(w.folder, CLAIMS_FOLDER)).catch(() => undefined);
      }
      watched.clear();
    },
    takenOver(path) {
      try {
        return parseRecord(readFileSync(recordOf(path), 'utf8'))?.takenOverBy;
      } catch {
        return undefined;
      }
    },
  };
}
