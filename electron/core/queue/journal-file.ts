/**
 * The journal's file on disk, as the open connection knows it. SQLite keeps writing to a file deleted under it (and
 * to its deleted -wal), so a journal removed, emptied or replaced while the uploader runs would be lost without a
 * word, and the next start would begin an empty history. Its identity (device and inode) is taken when it is opened
 * and looked at before every write and every CHECK_MS; once lost, whenJournalLost's listeners are told (the session
 * stops uploads) and the journal writes nothing more. A data folder removed as a whole is the lock's to tell
 * (process-lock.ts, in its own words); the journal only stops writing.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JournalLoss } from './journal-errors';

/** How often an open journal looks at its file when nothing is written: as often as the data folder's lock does. */
export const CHECK_MS = 1_000;

export type FileIdentity = { dev: number; ino: number };
/** The journal's file and its data folder, as opened. */
export type JournalIdentity = { file: FileIdentity; folder: FileIdentity };
export type JournalLost = { path: string; loss: JournalLoss };

const lostListeners = new Set<(lost: JournalLost) => void>();

/** Calls `listener` when the file of any journal this process has open is lost. Returns the unsubscribe. */
export function whenJournalLost(listener: (lost: JournalLost) => void): () => void {
  lostListeners.add(listener);
  return () => lostListeners.delete(listener);
}

export function tellJournalLost(lost: JournalLost): void {
  for (const listener of [...lostListeners]) {
    try {
      listener(lost);
    } catch {
      // One listener failing must not keep the others from hearing that the journal is gone.
    }
  }
}

export function journalIdentity(path: string): JournalIdentity {
  const file = statSync(path);
  const folder = statSync(dirname(path));
  return { file: { dev: file.dev, ino: file.ino }, folder: { dev: folder.dev, ino: folder.ino } };
}

const same = (a: FileIdentity, b: FileIdentity): boolean => a.dev === b.dev && a.ino === b.ino;

/**
 * How the journal at `path` differs from the one opened as `opened`; undefined while it is the same, non-empty file.
 * 'folder-removed' when its whole data folder went (or is another folder now): the data folder's lock says that one
 * to the clerk. A stat that fails otherwise than with ENOENT (a share hiccups) is no loss: judged at the next look.
 */
export function lossOf(path: string, opened: JournalIdentity): JournalLoss | 'folder-removed' | undefined {
  let file;
  let folder;
  try {
    folder = statSync(dirname(path), { throwIfNoEntry: false });
    file = statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!folder || !same(folder, opened.folder)) return 'folder-removed';
  if (!file) return 'removed';
  if (!same(file, opened.file)) return 'replaced';
  // An open journal is never shorter than its first page: SQLite writes that before the file is used.
  return file.size === 0 ? 'emptied' : undefined;
}
