/**
 * The queue's write-ahead journal: one SQLite file in the data folder. Every state change is committed here before
 * the queue acts on it, so a crash at any moment resumes from the last committed state. The unfinished jobs are also
 * kept in memory, updated only after their write is in SQLite: the queue looks at them on every step, and reading
 * them all back from SQLite each time made a folder of 1,000 files cost quadratic time.
 */
import Database from 'libsql';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordError, RecordKind } from '../../../shared';
import { NotOwnError, SharedFolderError, makePrivateDir, makePrivateFile } from '../../lib/private-files';
import { inTransaction } from '../../lib/sqlite-transaction';
import { JournalDamageFound, journalLostError, journalOpenError, type JournalUnusableError } from './journal-errors';
import { CHECK_MS, journalIdentity, lossOf, tellJournalLost } from './journal-file';
import type { KeptImportResult } from './import-results';
import type { BatchJob, BatchState, Job, JobService, JobState, StableFile } from './job-types';

type Db = InstanceType<typeof Database>;

export const JOURNAL_FILE = 'upload-queue.sqlite';

/**
 * How long a write waits for another program's lock on the journal (a database browser, a backup tool, a `send`
 * journaling its batch) before it fails. The wait blocks the process, so it is kept short; a write that still finds
 * the journal locked fails as a write that cannot be made, and is tried again.
 */
export const LOCK_WAIT_MS = 5_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, name TEXT NOT NULL, size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL, state TEXT NOT NULL, resume_state TEXT, created_at INTEGER NOT NULL,
  state_changed_at INTEGER NOT NULL, next_attempt_at INTEGER, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT,
  warnings TEXT NOT NULL DEFAULT '[]', warning_count INTEGER NOT NULL DEFAULT 0, md5 TEXT, file_type TEXT,
  reference_date TEXT, found_day TEXT NOT NULL, grant_url TEXT, grant_expires_at INTEGER, grant_issued_at INTEGER,
  put_started_at INTEGER, mismatches INTEGER NOT NULL DEFAULT 0, import_id TEXT, uploaded_at INTEGER,
  archive_target TEXT, archived_path TEXT, archived_at INTEGER, profile TEXT, base_url TEXT, identity TEXT,
  claimed_from TEXT, held_for TEXT, warnings_path TEXT, client_id TEXT, ctime_ms REAL, held_path TEXT, watch_until INTEGER,
  import_result TEXT, import_errors TEXT);
CREATE INDEX IF NOT EXISTS jobs_path ON jobs(path) WHERE archived_at IS NULL;
CREATE INDEX IF NOT EXISTS jobs_live ON jobs(archived_at, state);
CREATE TABLE IF NOT EXISTS batches (
  id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, records INTEGER NOT NULL, state TEXT NOT NULL,
  created_at INTEGER NOT NULL, state_changed_at INTEGER NOT NULL, import_id TEXT, received_at TEXT, error TEXT,
  profile TEXT, base_url TEXT, client_id TEXT, import_result TEXT, import_errors TEXT);
`;

/** Job field -> column. Every field of Job is stored. */
const JOB_COLUMNS = {
  id: 'id', path: 'path', name: 'name', size: 'size', mtimeMs: 'mtime_ms', state: 'state', resumeState: 'resume_state',
  createdAt: 'created_at', stateChangedAt: 'state_changed_at', nextAttemptAt: 'next_attempt_at', attempts: 'attempts',
  lastError: 'last_error', warnings: 'warnings', warningCount: 'warning_count', md5: 'md5', fileType: 'file_type',
  referenceDate: 'reference_date', foundDay: 'found_day', grantUrl: 'grant_url', grantExpiresAt: 'grant_expires_at',
  grantIssuedAt: 'grant_issued_at', putStartedAt: 'put_started_at', mismatches: 'mismatches', importId: 'import_id',
  uploadedAt: 'uploaded_at', archiveTarget: 'archive_target', archivedPath: 'archived_path', archivedAt: 'archived_at',
  profile: 'profile', baseUrl: 'base_url', clientId: 'client_id', identity: 'identity', claimedFrom: 'claimed_from', heldFor: 'held_for',
  warningsPath: 'warnings_path', ctimeMs: 'ctime_ms', heldPath: 'held_path', watchUntil: 'watch_until',
  importResult: 'import_result', importErrors: 'import_errors',
} as const satisfies Record<keyof Job, string>;

/** Fields kept as JSON text. */
const JSON_FIELDS: ReadonlySet<string> = new Set<keyof Job>(['warnings', 'importResult', 'importErrors']);

/** Columns added after the first version: a journal written by an older version gets them on open. */
const ADDED_COLUMNS = [
  'profile TEXT', 'base_url TEXT', 'identity TEXT', 'claimed_from TEXT', 'held_for TEXT', 'warnings_path TEXT', 'client_id TEXT', 'ctime_ms REAL',
  'held_path TEXT', 'watch_until INTEGER', 'import_result TEXT', 'import_errors TEXT',
];
/**
 * The same for batches: their service and client, and what the service made of them (import-results.ts), kept since;
 * a batch of an older journal has none (not known).
 */
const ADDED_BATCH_COLUMNS = ['profile TEXT', 'base_url TEXT', 'client_id TEXT', 'import_result TEXT', 'import_errors TEXT'];

/** Adds the columns a table of an older version lacks (each nullable: its old rows read as not known). */
function addMissingColumns(db: Db, table: string, columns: readonly string[]): void {
  const have = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Row[]).map((row) => String(row.name)));
  for (const column of columns) {
    if (!have.has(column.split(' ')[0] as string)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column}`);
  }
}

type Row = Record<string, string | number | bigint | null | undefined>;

function rowToJob(row: Row): Job {
  const job: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(JOB_COLUMNS)) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    job[field] = JSON_FIELDS.has(field) ? JSON.parse(String(value)) : value;
  }
  job.warnings ??= [];
  return job as Job;
}

/** A batch's row as the journal and the history's read connection (job-query.ts) both read it. */
export function rowToBatch(row: Row): BatchJob {
  return {
    id: Number(row.id), kind: row.kind as RecordKind, records: Number(row.records), state: row.state as BatchState,
    createdAt: Number(row.created_at), stateChangedAt: Number(row.state_changed_at),
    ...(row.import_id ? { importId: String(row.import_id) } : {}),
    ...(row.received_at ? { receivedAt: String(row.received_at) } : {}),
    ...(row.error ? { error: String(row.error) } : {}),
    ...(row.profile ? { profile: String(row.profile) } : {}),
    ...(row.base_url ? { baseUrl: String(row.base_url) } : {}),
    ...(row.client_id ? { clientId: String(row.client_id) } : {}),
    ...(row.import_result ? { importResult: JSON.parse(String(row.import_result)) as KeptImportResult } : {}),
    ...(row.import_errors ? { importErrors: JSON.parse(String(row.import_errors)) as RecordError[] } : {}),
  };
}

/** A change to a job; `null` clears a field. */
export type JobPatch = { [K in Exclude<keyof Job, 'id'>]?: Job[K] | null };

export type Journal = {
  readonly path: string;
  /** Journals a newly found file in state `found`, for the service it is to be sent to. */
  insertJob(file: StableFile, at: number, foundDay: string, service?: JobService): Job;
  /** Writes the change (and the state-change time when the state changes) and returns the job as stored. */
  update(id: number, patch: JobPatch, at: number): Job;
  job(id: number): Job | undefined;
  /** Jobs whose file has not been archived yet at `path` (at most one is expected). */
  liveJobsAt(path: string): Job[];
  /** Every job not yet archived, oldest first (from memory: no SQLite read). */
  liveJobs(): Job[];
  /** Filed jobs whose file is still watched for writes after filing (`watchUntil` set), oldest first. */
  watchedJobs(): Job[];
  /**
   * Runs `fn` in one SQLite transaction: its writes are committed together (one disk sync instead of one each), or
   * none of them when it throws. Not nestable.
   */
  transaction<T>(fn: () => T): T;
  /**
   * How the journal's file was lost while open (removed, emptied, replaced: journal-file.ts) as the error every write
   * then throws; undefined while it is there.
   */
  lost(): JournalUnusableError | undefined;
  /** Jobs newest first (`limit` default 1000). */
  jobs(limit?: number): Job[];
  /** Journals a batch in state `sending`, with the service (and client) it is sent to. */
  insertBatch(kind: RecordKind, records: number, at: number, service?: JobService): BatchJob;
  updateBatch(id: number, patch: { state: BatchState; importId?: string; receivedAt?: string; error?: string }, at: number): BatchJob;
  /**
   * Keeps what the service made of a sent batch, import `importId` (import-results.ts); its state, and when it changed,
   * stay. Undefined when that batch is not that import's.
   */
  keepBatchImport(id: number, importId: string, result: KeptImportResult, errors: readonly RecordError[]): BatchJob | undefined;
  batches(limit?: number): BatchJob[];
  /** Batches journaled as `sending` by a run that ended: their outcome was never seen. */
  markInterruptedBatches(at: number): number;
  close(): void;
};

/**
 * Opens (creating if needed) the journal in `dataDir`. A journal that is damaged or cannot be written throws
 * JournalUnusableError, naming the file and what to do; the file itself is never changed or replaced here.
 * `lockWaitMs` (tests): how long a write waits for another program's lock.
 */
export function openJournal(dataDir: string, { lockWaitMs = LOCK_WAIT_MS }: { lockWaitMs?: number } = {}): Journal {
  const path = join(dataDir, JOURNAL_FILE);
  let db: Db | undefined;
  try {
    // An emptied journal (0 bytes: a tool truncated it, a copy that failed) would open as a new, empty database and
    // the history would be gone without a word: it is damage. A journal SQLite made is never shorter than one page.
    const found = statSync(path, { throwIfNoEntry: false });
    if (found?.size === 0) throw new JournalDamageFound('the file is empty: 0 bytes');
    // Payroll file names and unused upload addresses: for this user's eyes only, as the settings beside it.
    makePrivateDir(dataDir);
    if (!found) createJournalFile(path);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) if (file === path || existsSync(file)) makePrivateFile(file);
    db = new Database(path);
    return journalOn(db, path, lockWaitMs);
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Closing a connection to a damaged file may fail too; the error that matters is the first one.
    }
    if (error instanceof NotOwnError || error instanceof SharedFolderError) throw error;
    throw journalOpenError(path, error);
  }
}

/**
 * Makes a new journal file whole or not at all: its first page is written beside it under another name, then renamed
 * into place. So a journal file, once there, is never empty, and an empty one is damage (above): a first start cut off
 * by a full disk or a kill leaves only the other name, made again at the next start.
 */
function createJournalFile(path: string): void {
  const making = `${path}.new`;
  for (const each of [making, `${making}-journal`]) rmSync(each, { force: true });
  try {
    makePrivateFile(making);
    const db = new Database(making);
    try {
      // VACUUM writes an empty database's first page: the file is a database from here on.
      db.exec('VACUUM');
    } finally {
      db.close();
    }
    renameSync(making, path);
  } catch (error) {
    for (const each of [making, `${making}-journal`]) rmSync(each, { force: true });
    throw error;
  }
}

/**
 * Damage SQLite finds only when it reads the damaged page (a page past the first overwritten: one table, one index)
 * would otherwise surface later as "database disk image is malformed" from whatever step reads it, or as a write
 * that never succeeds. quick_check reads every page once: for a journal of 10,000 jobs (3.6 MB) about 5 ms from the
 * disk cache, about 150 ms from the disk.
 */
function checkPages(db: Db): void {
  const found = db.prepare('PRAGMA quick_check(1)').pluck().all().map(String);
  if (found.length !== 1 || found[0] !== 'ok') {
    // For IT support: which page, as SQLite says it ("Tree 6 page 6: btreeInitPage() returns error code 11").
    const lines = found.flatMap((each) => each.split('\n')).filter((line) => line.trim() !== '' && !line.startsWith('*** in database'));
    throw new JournalDamageFound(`SQLite's check of its pages found damage: ${lines.join('; ')}`);
  }
}

function journalOn(db: Db, path: string, lockWaitMs: number): Journal {
  // WAL + synchronous FULL: every acknowledged change is on disk before we act on it, even across a power cut
  // (NORMAL would already survive kill -9; the writes are few and small, so FULL costs little).
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = ${Math.max(0, Math.round(lockWaitMs))};`);
  checkPages(db);
  db.exec(SCHEMA);
  addMissingColumns(db, 'jobs', ADDED_COLUMNS);
  addMissingColumns(db, 'batches', ADDED_BATCH_COLUMNS);
  // After the columns: a journal of an older version gets watch_until only above.
  db.exec('CREATE INDEX IF NOT EXISTS jobs_watched ON jobs(watch_until) WHERE watch_until IS NOT NULL');

  const getJob = db.prepare('SELECT * FROM jobs WHERE id = ?');
  const getWatched = db.prepare('SELECT * FROM jobs WHERE watch_until IS NOT NULL ORDER BY id');
  const job = (id: number): Job | undefined => {
    const row = getJob.get(id) as Row | undefined;
    return row ? rowToJob(row) : undefined;
  };
  // Write-through copy of the rows with archived_at NULL, in id order (a Map keeps insertion order).
  let live = new Map<number, Job>();
  /** Set when a failed write could not reload the copy: it is read again from SQLite before it is used. */
  let stale = false;
  const loadLive = () => {
    const loaded = new Map<number, Job>();
    for (const row of db.prepare('SELECT * FROM jobs WHERE archived_at IS NULL ORDER BY id').all() as Row[]) {
      const stored = rowToJob(row);
      loaded.set(stored.id, stored);
    }
    live = loaded;
    stale = false;
  };
  const current = (): Map<number, Job> => {
    if (stale) loadLive();
    return live;
  };
  loadLive();

  // The file as opened: a write after it was removed or replaced would go where nobody reads it (journal-file.ts).
  const opened = journalIdentity(path);
  let lostError: JournalUnusableError | undefined;
  const lookAtFile = (): JournalUnusableError | undefined => {
    if (lostError) return lostError;
    const loss = lossOf(path, opened);
    if (loss === undefined) return undefined;
    lostError = journalLostError(path, loss);
    clearInterval(looking);
    if (loss !== 'folder-removed') tellJournalLost({ path, loss });
    return lostError;
  };
  const looking = setInterval(lookAtFile, CHECK_MS);
  looking.unref();

  /**
   * Every write goes through here, in a transaction that takes the write lock when it begins (BEGIN IMMEDIATE, waiting
   * up to lockWaitMs for another program's lock): a transaction that read first and took the lock only at its first
   * write (a deferred BEGIN) failed at once when another program held it, as SQLite never waits there. A write that
   * fails throws (inTransaction: nothing of it kept, its own error told), and the memory copy is read again from SQLite.
   */
  let writing = false;
  const write = <T>(fn: () => T): T => {
    if (writing) return fn();
    const lost = lookAtFile();
    if (lost) throw lost;
    writing = true;
    try {
      return inTransaction(db, 'IMMEDIATE', fn);
    } catch (error) {
      try {
        loadLive();
      } catch {
        stale = true;
      }
      throw error;
    } finally {
      writing = false;
    }
  };
  const remember = (stored: Job): Job => {
    const jobs = current();
    if (stored.archivedAt === undefined) jobs.set(stored.id, stored);
    else jobs.delete(stored.id);
    return stored;
  };
  const getBatch = db.prepare('SELECT * FROM batches WHERE id = ?');
  const batch = (id: number): BatchJob => rowToBatch(getBatch.get(id) as Row);

  return {
    path,
    insertJob: (file, at, foundDay, service) => write(() => {
      const info = db
        .prepare(`INSERT INTO jobs (path, name, size, mtime_ms, state, created_at, state_changed_at, found_day, profile,
                  base_url, client_id, identity, claimed_from) VALUES (?, ?, ?, ?, 'found', ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(file.path, file.name, file.size, file.mtimeMs, at, at, foundDay, service?.profile ?? null, service?.baseUrl ?? null,
          service?.clientId ?? null, file.identity ?? null, file.claimedFrom ?? null);
      return remember(job(Number(info.lastInsertRowid)) as Job);
    }),
    update: (id, patch, at) => write(() => {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [field, value] of Object.entries(patch)) {
        const column = JOB_COLUMNS[field as keyof Job];
        if (!column || value === undefined) continue;
        sets.push(`${column} = ?`);
        values.push(JSON_FIELDS.has(field) && value !== null ? JSON.stringify(value) : value);
      }
      if (patch.state !== undefined) {
        sets.push('state_changed_at = ?');
        values.push(at);
      }
      if (sets.length > 0) db.prepare(`UPDATE jobs SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
      const stored = job(id);
      if (!stored) throw new Error(`Upload queue: job ${id} is not in the journal`);
      return remember(stored);
    }),
    job: (id) => current().get(id) ?? job(id),
    liveJobsAt(filePath) {
      return (db.prepare('SELECT * FROM jobs WHERE path = ? AND archived_at IS NULL ORDER BY id').all(filePath) as Row[]).map(rowToJob);
    },
    liveJobs() {
      return [...current().values()];
    },
    watchedJobs() {
      return (getWatched.all() as Row[]).map(rowToJob);
    },
    transaction: write,
    lost: lookAtFile,
    jobs(limit = 1000) {
      return (db.prepare('SELECT * FROM jobs ORDER BY id DESC LIMIT ?').all(limit) as Row[]).map(rowToJob);
    },
    insertBatch: (kind, records, at, service) => write(() => {
      const info = db
        .prepare(`INSERT INTO batches (kind, records, state, created_at, state_changed_at, profile, base_url, client_id)
                  VALUES (?, ?, 'sending', ?, ?, ?, ?, ?)`)
        .run(kind, records, at, at, service?.profile ?? null, service?.baseUrl ?? null, service?.clientId ?? null);
      return batch(Number(info.lastInsertRowid));
    }),
    updateBatch: (id, patch, at) => write(() => {
      db.prepare('UPDATE batches SET state = ?, import_id = ?, received_at = ?, error = ?, state_changed_at = ? WHERE id = ?')
        .run(patch.state, patch.importId ?? null, patch.receivedAt ?? null, patch.error ?? null, at, id);
      return batch(id);
    }),
    keepBatchImport: (id, importId, result, errors) => write(() => {
      const info = db.prepare('UPDATE batches SET import_result = ?, import_errors = ? WHERE id = ? AND import_id = ?')
        .run(JSON.stringify(result), JSON.stringify(errors), id, importId);
      return info.changes > 0 ? batch(id) : undefined;
    }),
    batches(limit = 1000) {
      return (db.prepare('SELECT * FROM batches ORDER BY id DESC LIMIT ?').all(limit) as Row[]).map(rowToBatch);
    },
    markInterruptedBatches: (at) => write(() => {
      const info = db
        .prepare(`UPDATE batches SET state = 'unknown', state_changed_at = ?,
                  error = 'the app stopped while this batch was being sent; check the imports before sending it again'
                  WHERE state = 'sending'`)
        .run(at);
      return info.changes;
    }),
    close() {
      clearInterval(looking);
      db.close();
    },
  };
}

/** The states a job can be in while its file is still in the watched folder and work remains. */
export const ACTIVE_STATES: readonly JobState[] = ['found', 'hashing', 'validating', 'granting', 'uploading', 'waiting'];
