/** Imports (JSON batches and uploaded files) and their lifecycle in the database. */
import { promisify } from 'node:util';
import { deflate, inflateSync } from 'node:zlib';
import type { ImportResult, ImportStatus, RecordError, RecordKind } from '../../../shared';
import type { Db } from './database';
import { statement } from './database';

export type ImportRow = {
  id: string; client_id: string; kind: RecordKind; source: 'json' | 'file'; file_name: string | null;
  status: ImportStatus; records: number | null; accepted: number; rejected: number; errors: string;
  reason: string | null; payload: string | Buffer | null; received_at: string; processed_at: string | null;
  /** In memory only: a JSON batch's records as the route accepted them, so processing need not parse the payload. */
  parsed?: unknown[];
};

/** Errors kept per import; the counts always cover every record. */
export const MAX_KEPT_ERRORS = 1000;

/** Payloads above this are stored deflated; below it deflating costs more than writing. */
const DEFLATE_ABOVE = 16 * 1024;
const deflateAsync = promisify(deflate);

/**
 * A JSON batch's text as it is kept until processed: deflated above DEFLATE_ABOVE bytes (a BLOB), else as
 * TEXT. Writing 5 MB of text cost ~35 ms of the batch's answer, writing its compressed form ~1 ms; the
 * deflate itself runs on libuv's thread pool, off the event loop.
 */
export async function payloadToStore(json: string | Buffer): Promise<string | Buffer> {
  if (json.length <= DEFLATE_ABOVE) return json.toString();
  return deflateAsync(json, { level: 1 });
}

/**
 * The next arrival number (column `seq`). Imports are processed in the order their data arrived: a JSON batch when
 * it is recorded, a file when its upload is complete (not when its address was granted). A running server hands
 * them to the processor in that order; `seq` keeps it in the database, so a restart resumes them in the same order
 * (received_at alone cannot: two arrivals may share a millisecond, and the clock may be set back between them).
 * An import awaiting its upload holds the number of its grant until the file arrives.
 */
const NEXT_SEQ = '(SELECT COALESCE(MAX(seq), 0) + 1 FROM imports)';

/** Records a new import; a JSON batch's `payload` is in the form `payloadToStore` gives (or plain JSON text). */
export function insertImport(db: Db, row: Pick<ImportRow, 'id' | 'client_id' | 'kind' | 'source' | 'status'> &
  Partial<Pick<ImportRow, 'file_name' | 'records'>> & { payload?: string | Buffer }): string {
  const receivedAt = new Date().toISOString();
  statement(db,
    `INSERT INTO imports (id, client_id, kind, source, file_name, status, records, payload, received_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ${NEXT_SEQ})`,
  ).run(row.id, row.client_id, row.kind, row.source, row.file_name ?? null, row.status, row.records ?? null, row.payload ?? null, receivedAt);
  return receivedAt;
}

/** Records an import that was processed as it arrived (one write instead of an insert and an update). */
export function insertFinishedImport(db: Db, row: ImportRow): void {
  statement(db,
    `INSERT INTO imports (id, client_id, kind, source, file_name, status, records, accepted, rejected, errors, reason, received_at, processed_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${NEXT_SEQ})`,
  ).run(row.id, row.client_id, row.kind, row.source, row.file_name, row.status, row.records, row.accepted, row.rejected, row.errors,
    row.reason, row.received_at, row.processed_at);
}

/** A file import's data arrived (its upload completed at `at`): it is queued, received now, and last in arrival order. */
export function queueUploadedImport(db: Db, importId: string, at: string): void {
  statement(db, `UPDATE imports SET status = 'QUEUED', received_at = ?, seq = ${NEXT_SEQ} WHERE id = ? AND status = 'AWAITING_UPLOAD'`)
    .run(at, importId);
}

/** The records of a JSON batch as they were accepted. */
export function importRecords(row: ImportRow): unknown[] {
  if (row.parsed) return row.parsed;
  if (row.payload === null) return [];
  // SQLite hands TEXT back as a string and BLOB as a Buffer: the stored form tells itself.
  return JSON.parse(typeof row.payload === 'string' ? row.payload : inflateSync(row.payload).toString('utf8')) as unknown[];
}

export function getImport(db: Db, id: string): ImportRow | undefined {
  return statement(db, 'SELECT * FROM imports WHERE id = ?').get(id) as ImportRow | undefined;
}

export function setImportStatus(db: Db, id: string, status: ImportStatus): void {
  statement(db, 'UPDATE imports SET status = ? WHERE id = ?').run(status, id);
}

export type ProcessOutcome =
  | { status: 'PROCESSED'; records: number; accepted: number; rejected: number; errors: RecordError[] }
  | { status: 'REJECTED'; reason: string; records?: number | null };

/** Records the outcome of an import and returns the row as it now stands. */
export function finishImport(db: Db, row: ImportRow, outcome: ProcessOutcome): ImportRow {
  const at = new Date().toISOString();
  if (outcome.status === 'PROCESSED') {
    const errors = JSON.stringify(outcome.errors.slice(0, MAX_KEPT_ERRORS));
    statement(db, `UPDATE imports SET status = 'PROCESSED', records = ?, accepted = ?, rejected = ?, errors = ?, processed_at = ?, payload = NULL WHERE id = ?`)
      .run(outcome.records, outcome.accepted, outcome.rejected, errors, at, row.id);
    return { ...row, status: 'PROCESSED', records: outcome.records, accepted: outcome.accepted, rejected: outcome.rejected, errors, processed_at: at, payload: null, parsed: undefined };
  }
  const records = outcome.records ?? null;
  statement(db, `UPDATE imports SET status = 'REJECTED', records = ?, reason = ?, processed_at = ?, payload = NULL WHERE id = ?`)
    .run(records, outcome.reason, at, row.id);
  return { ...row, status: 'REJECTED', records, reason: outcome.reason, processed_at: at, payload: null, parsed: undefined };
}

/** Imports a crash or stop left unfinished, in the order their data arrived (the order a running server processes them in). */
export function unfinishedImports(db: Db): ImportRow[] {
  return statement(db, `SELECT * FROM imports WHERE status IN ('QUEUED', 'PROCESSING') ORDER BY seq`).all() as ImportRow[];
}

export function toImportResult(row: ImportRow): ImportResult {
  return {
    id: row.id,
    kind: row.kind,
    source: row.source,
    ...(row.file_name ? { fileName: row.file_name } : {}),
    status: row.status,
    records: row.records,
    acceptedRecords: row.accepted,
    rejectedRecords: row.rejected,
    errors: JSON.parse(row.errors) as RecordError[],
    ...(row.reason ? { reason: row.reason } : {}),
    receivedAt: row.received_at,
    ...(row.processed_at ? { processedAt: row.processed_at } : {}),
  };
}
