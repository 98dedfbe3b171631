/**
 * Windows of the job history for the screens: filters, sort, offset + limit and the total, answered from indexes so a
 * journal of 100,000 jobs stays quick. It has its own read connection to the journal (WAL lets it read while the queue
 * writes) and adds its own indexes and a trigram index of the file names, kept current by triggers in SQLite itself.
 */
import Database from 'libsql';
import { NO_FILE_TYPE, type FileTypeCode } from '../../../shared';
import type { BatchJob, Job, JobState } from './job-types';
import { rowToBatch } from './journal';

type Db = InstanceType<typeof Database>;

export type JobSortKey = 'foundAt' | 'name' | 'state' | 'size';

export type JobFilter = {
  /** Any of these states (outcomes are states too). */
  states?: readonly JobState[];
  /** Any of these types; `none` for a file whose type was never read. */
  fileTypes?: readonly (FileTypeCode | typeof NO_FILE_TYPE)[];
  /**
   * Found at or after / before these instants (ms since 1970 UTC): the start and end of the clerk's days as the screen
   * computes them where the clerk is. Never the journal's found_day, the day in the zone the PC had when the file was
   * found: after a change of zone that is another date than the one History shows.
   */
  foundSince?: number;
  foundBefore?: number;
  /** Part of the name, any case. */
  text?: string;
  /** true: filed away; false: still in the queue. */
  finished?: boolean;
};

export type JobWindowQuery = JobFilter & {
  sort: { by: JobSortKey; dir: 'asc' | 'desc' };
  offset: number;
  limit: number;
};

/** A job as the lists show it: everything but its warnings and the upload's working fields. */
export type JobListItem = Omit<
  Job, 'warnings' | 'grantUrl' | 'grantExpiresAt' | 'grantIssuedAt' | 'putStartedAt' | 'archiveTarget' | 'mismatches' | 'mtimeMs' | 'ctimeMs'
    | 'importErrors'
>;

export type JobQuery = {
  window(query: JobWindowQuery): { total: number; items: JobListItem[] };
  /** SQLite's plan for the window's two statements (to check that they search indexes rather than scan). */
  plan(query: JobWindowQuery): string[];
  /** Manual batches, newest first. */
  batches(offset: number, limit: number): { total: number; items: BatchJob[] };
  close(): void;
};

// The days found are filtered on created_at (jobs_q_found); the index of found_day that the old day filter used is
// dropped from journals that have it.
const INDEXES = `
CREATE INDEX IF NOT EXISTS jobs_q_found ON jobs(created_at);
CREATE INDEX IF NOT EXISTS jobs_q_state ON jobs(state, created_at);
CREATE INDEX IF NOT EXISTS jobs_q_type ON jobs(file_type, created_at);
DROP INDEX IF EXISTS jobs_q_day;
CREATE INDEX IF NOT EXISTS jobs_q_name ON jobs(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS jobs_q_size ON jobs(size);
CREATE INDEX IF NOT EXISTS jobs_q_archived ON jobs(archived_at);
`;

// External-content FTS5 over jobs.name: the text lives once, in jobs; the triggers keep the index in step with every
// insert, delete and rename, whichever connection writes.
const NAME_INDEX = `
CREATE VIRTUAL TABLE job_names USING fts5(name, content='jobs', content_rowid='id', tokenize='trigram');
CREATE TRIGGER IF NOT EXISTS job_names_ai AFTER INSERT ON jobs BEGIN
  INSERT INTO job_names(rowid, name) VALUES (new.id, new.name);
END;
CREATE TRIGGER IF NOT EXISTS job_names_ad AFTER DELETE ON jobs BEGIN
  INSERT INTO job_names(job_names, rowid, name) VALUES ('delete', old.id, old.name);
END;
CREATE TRIGGER IF NOT EXISTS job_names_au AFTER UPDATE OF name ON jobs BEGIN
  INSERT INTO job_names(job_names, rowid, name) VALUES ('delete', old.id, old.name);
  INSERT INTO job_names(rowid, name) VALUES (new.id, new.name);
END;
INSERT INTO job_names(job_names) VALUES ('rebuild');
`;

const ORDER: Record<JobSortKey, string> = {
  foundAt: 'created_at', name: 'name COLLATE NOCASE', state: 'state', size: 'size',
};

type Row = Record<string, string | number | null>;

/** The list's columns and the fields they fill, in the order the window selects them. */
const LIST_COLUMNS: readonly (readonly [string, keyof JobListItem])[] = [
  ['id', 'id'], ['path', 'path'], ['name', 'name'], ['size', 'size'], ['state', 'state'], ['resume_state', 'resumeState'],
  ['created_at', 'createdAt'], ['state_changed_at', 'stateChangedAt'], ['next_attempt_at', 'nextAttemptAt'], ['attempts', 'attempts'],
  ['last_error', 'lastError'], ['warning_count', 'warningCount'], ['md5', 'md5'], ['file_type', 'fileType'],
  ['reference_date', 'referenceDate'], ['found_day', 'foundDay'], ['import_id', 'importId'], ['uploaded_at', 'uploadedAt'],
  ['archived_path', 'archivedPath'], ['archived_at', 'archivedAt'], ['claimed_from', 'claimedFrom'],
  // The service and client the job was queued for: the screens say when it waits for another one than uploads go to now.
  ['profile', 'profile'], ['base_url', 'baseUrl'], ['client_id', 'clientId'],
  // What the service made of the file, when it said (import-results.ts): its counts, not its reasons (JSON).
  ['import_result', 'importResult'],
];
const COLUMNS = LIST_COLUMNS.map(([column]) => column).join(', ');

/**
 * A window's row, read as an array of values in LIST_COLUMNS order: a row read as an object and walked with
 * Object.entries cost twice the SELECT itself (100 rows: about 0.8 ms against 0.35 ms).
 */
function toItem(values: readonly (string | number | null)[]): JobListItem {
  const item: Record<string, unknown> = {};
  LIST_COLUMNS.forEach(([, field], i) => {
    const value = values[i];
    if (value !== null && value !== undefined) item[field] = field === 'importResult' ? JSON.parse(String(value)) : value;
  });
  return item as JobListItem;
}

/** The trigram index needs three characters; shorter text is looked up with LIKE (escaped). */
const TRIGRAM_MIN = 3;
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const ftsPhrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * Above this many matches a text filter walks the sort order with LIKE and stops at the window's end; below it the
 * trigram index finds the few matching rows at once. (The index's list of a common text is as long as the table.)
 */
const DENSE_MATCHES = 2_000;

function whereOf(filter: JobFilter, textBy: 'index' | 'like'): { sql: string; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const anyOf = (column: string, values: readonly string[]) => {
    where.push(values.length === 0 ? '0' : `${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  if (filter.states) anyOf('state', [...new Set(filter.states)]);
  if (filter.fileTypes) {
    const types = new Set(filter.fileTypes);
    const read = [...types].filter((type) => type !== NO_FILE_TYPE);
    const alternatives = [
      ...(read.length > 0 ? [`file_type IN (${read.map(() => '?').join(', ')})`] : []),
      ...(types.has(NO_FILE_TYPE) ? ['file_type IS NULL'] : []),
    ];
    where.push(alternatives.length === 0 ? '0' : `(${alternatives.join(' OR ')})`);
    params.push(...read);
  }
  if (filter.foundSince !== undefined) {
    where.push('created_at >= ?');
    params.push(filter.foundSince);
  }
  if (filter.foundBefore !== undefined) {
    where.push('created_at < ?');
    params.push(filter.foundBefore);
  }
  if (filter.finished !== undefined) where.push(filter.finished ? 'archived_at IS NOT NULL' : 'archived_at IS NULL');
  const text = filter.text?.trim();
  if (text) {
    if (textBy === 'index' && text.length >= TRIGRAM_MIN) {
      where.push('id IN (SELECT rowid FROM job_names WHERE job_names MATCH ?)');
      params.push(ftsPhrase(text));
    } else {
      where.push("name LIKE ? ESCAPE '\\'");
      params.push(likePattern(text));
    }
  }
  return { sql: where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', params };
}

/** Opens the query side of the journal at `journalPath` (the queue must have created it). */
export function openJobQuery(journalPath: string): JobQuery {
  const db: Db = new Database(journalPath, { fileMustExist: true });
  db.exec('PRAGMA busy_timeout = 5000;');
  db.exec(INDEXES);
  const hasNameIndex = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'job_names'").get() !== undefined;
  if (!hasNameIndex) db.transaction(() => db.exec(NAME_INDEX))();
  const statements = new Map<string, Database.Statement<unknown[]>>();
  /** `raw`: the statement answers each row as an array of its values. */
  const prepared = (sql: string, raw = false) => {
    const key = raw ? `raw\u0000${sql}` : sql;
    let statement = statements.get(key);
    if (!statement) {
      statement = db.prepare<unknown[]>(sql);
      if (raw) statement.raw(true);
      statements.set(key, statement);
    }
    return statement;
  };

  // Totals (and, for a text filter, the few matching ids) are kept until the journal changes (any connection's
  // commit moves data_version): paging through a window or refetching it pays for the search once.
  const versionStatement = db.prepare<unknown[]>('PRAGMA data_version');
  const dataVersion = () => Number(Object.values(versionStatement.get() as Record<string, number>)[0]);
  type Found = { total: number; ids?: number[] };
  const found = new Map<string, Found>();
  let seenVersion: number | undefined;
  const search = (filter: JobFilter): Found => {
    const version = dataVersion();
    if (version !== seenVersion) {
      found.clear();
      seenVersion = version;
    }
    const { sql, params } = whereOf(filter, 'index');
    const key = `${sql}\u0000${JSON.stringify(params)}`;
    let hit = found.get(key);
    if (!hit) {
      if (filter.text?.trim()) {
        // The trigram search is the expensive part: take the ids at once and window them from memory later.
        const ids = (prepared(`SELECT id FROM jobs ${sql}`).all(...params) as { id: number }[]).map((row) => row.id);
        hit = ids.length <= DENSE_MATCHES ? { total: ids.length, ids } : { total: ids.length };
      } else {
        hit = { total: Number((prepared(`SELECT COUNT(*) AS n FROM jobs ${sql}`).get(...params) as { n: number }).n) };
      }
      if (found.size >= 100) found.clear();
      found.set(key, hit);
    }
    return hit;
  };
  const rowsOf = (query: JobWindowQuery, hit: Found) => {
    const dir = query.sort.dir === 'asc' ? 'ASC' : 'DESC';
    const order = `ORDER BY ${ORDER[query.sort.by]} ${dir}, id ${dir} LIMIT ? OFFSET ?`;
    if (hit.ids) return { sql: `SELECT ${COLUMNS} FROM jobs WHERE id IN (SELECT value FROM json_each(?)) ${order}`, params: [JSON.stringify(hit.ids)] };
    const { sql, params } = whereOf(query, 'like');
    return { sql: `SELECT ${COLUMNS} FROM jobs ${sql} ${order}`, params };
  };

  return {
    window(query) {
      const hit = search(query);
      if (hit.total === 0) return { total: 0, items: [] };
      const { sql, params } = rowsOf(query, hit);
      const rows = prepared(sql, true).all(...params, query.limit, query.offset) as (string | number | null)[][];
      return { total: hit.total, items: rows.map(toItem) };
    },
    plan(query) {
      const explain = (sql: string, values: unknown[]) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as { detail: string }[]).map((r) => r.detail);
      const count = whereOf(query, 'index');
      const rows = rowsOf(query, search(query));
      return [...explain(`SELECT COUNT(*) FROM jobs ${count.sql}`, count.params), ...explain(rows.sql, [...rows.params, query.limit, query.offset])];
    },
    batches(offset, limit) {
      const total = Number((prepared('SELECT COUNT(*) AS n FROM batches').get() as { n: number }).n);
      const rows = prepared('SELECT * FROM batches ORDER BY id DESC LIMIT ? OFFSET ?').all(limit, offset) as Row[];
      return { total, items: rows.map(rowToBatch) };
    },
    close() {
      db.close();
    },
  };
}
