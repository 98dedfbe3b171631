/** The files table: one row per upload grant. GRANTED -> UPLOADED, or GRANTED -> SUPERSEDED by a newer grant. */
import type { FileTypeCode } from '../../../shared';
import type { Db } from '../db/database';
import { statement } from '../db/database';
import { queueUploadedImport } from '../db/imports-repo';

export type FileStatus = 'GRANTED' | 'UPLOADED' | 'SUPERSEDED';

export type FileRow = {
  id: string; client_id: string; import_id: string; file_name: string; file_type: FileTypeCode;
  checksum: string; reference_date: string; status: FileStatus; expires_at: number;
  created_at: string; uploaded_at: string | null; size: number | null; path: string | null;
};

export function getFile(db: Db, id: string): FileRow | undefined {
  return statement(db, 'SELECT * FROM files WHERE id = ?').get(id) as FileRow | undefined;
}

/** The stored file of an uploaded import. */
export function uploadedFileOfImport(db: Db, importId: string): FileRow | undefined {
  return statement(db, `SELECT * FROM files WHERE import_id = ? AND status = 'UPLOADED'`).get(importId) as FileRow | undefined;
}

/** The client's files with this checksum (stored lower-case) that are uploaded or still granted. */
export function liveFilesWithChecksum(db: Db, clientId: string, checksum: string): FileRow[] {
  return statement(db, `SELECT * FROM files WHERE client_id = ? AND checksum = ? AND status IN ('UPLOADED', 'GRANTED')`)
    .all(clientId, checksum) as FileRow[];
}

export function insertFile(db: Db, row: Omit<FileRow, 'uploaded_at' | 'size' | 'path' | 'status' | 'created_at'>): void {
  statement(db, 
    `INSERT INTO files (id, client_id, import_id, file_name, file_type, checksum, reference_date, status, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'GRANTED', ?, ?)`,
  ).run(row.id, row.client_id, row.import_id, row.file_name, row.file_type, row.checksum, row.reference_date, row.expires_at, new Date().toISOString());
}

/**
 * Retires a never-used grant: its address stops working (SUPERSEDED) and its import, which never
 * got a file, is deleted so that import listings show only the grant that can still be used.
 */
export function supersedeGrant(db: Db, file: FileRow): void {
  statement(db, `UPDATE files SET status = 'SUPERSEDED' WHERE id = ? AND status = 'GRANTED'`).run(file.id);
  statement(db, `DELETE FROM imports WHERE id = ? AND status = 'AWAITING_UPLOAD'`).run(file.import_id);
}

/**
 * Retires every grant whose address expired unused, as a newer grant retires one (supersedeGrant): its import, which
 * never got a file, would otherwise wait in the import listings for good. Not one whose upload is still being received
 * (`receiving`): it began before the address expired, and its file is kept when it ends.
 */
export function retireExpiredGrants(db: Db, nowMs: number, receiving: ReadonlySet<string>): void {
  const expired = statement(db, `SELECT * FROM files WHERE status = 'GRANTED' AND expires_at < ?`).all(Math.floor(nowMs / 1000)) as FileRow[];
  const retired = expired.filter((file) => !receiving.has(file.id));
  if (retired.length > 0) db.transaction(() => retired.forEach((file) => supersedeGrant(db, file)))();
}

/** Marks a grant used: the file is stored at `path` and its import queued, received now. False when it was no longer GRANTED. */
export function markUploaded(db: Db, file: FileRow, size: number, path: string): boolean {
  const at = new Date().toISOString();
  return db.transaction(() => {
    const changed = statement(db, 
      `UPDATE files SET status = 'UPLOADED', size = ?, path = ?, uploaded_at = ? WHERE id = ? AND status = 'GRANTED'`,
    ).run(size, path, at, file.id).changes;
    if (changed !== 1) return false;
    queueUploadedImport(db, file.import_id, at);
    return true;
  })();
}
