/**
 * Processing of an uploaded CSV file (docs/service-decisions.md §3 and §4, step 3): the stored file is read once through
 * the shared CSV reader. A whole-file problem rejects the import; otherwise each row is accepted or
 * refused with its line number. Census files make their employees known for later receipts; receipts
 * of employees no census import has carried are refused per line.
 */
import type { RecordError } from '../../../shared';
import type { CsvRecord } from '../../lib/csv';
import { readCsvFile } from '../../lib/csv';
import type { ServerContext } from '../context';
import type { Db } from '../db/database';
import type { ImportRow, ProcessOutcome } from '../db/imports-repo';
import { MAX_KEPT_ERRORS } from '../db/imports-repo';
import { registrationChecker, unknownEmployeeMessage } from '../processing/json-batches';
import { uploadedFileOfImport } from './files-repo';

const BATCH = 5000;
const MISSING = 'the stored file of this import is missing from the server\'s uploads folder';
const ROWS_PER_INSERT = 500;

/**
 * Registrations of the census file being read, staged in a connection-local table and made known
 * only when the whole file turns out usable: a file refused late (bytes that are not UTF-8, broken
 * quoting near its end) must not make its employees known.
 */
function censusStaging(db: Db, clientId: string) {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS staged_registrations (employee_registration TEXT PRIMARY KEY) WITHOUT ROWID');
  db.exec('DELETE FROM temp.staged_registrations');
  // Many rows per statement: each call into SQLite costs more than inserting a row.
  const insert = 'INSERT OR IGNORE INTO temp.staged_registrations (employee_registration) VALUES ';
  const stageOne = db.prepare(`${insert}(?)`);
  const stageMany = db.prepare(`${insert}${Array.from({ length: ROWS_PER_INSERT }, () => '(?)').join(',')}`);
  const stageAll = db.transaction((regs: string[]) => {
    let i = 0;
    for (; i + ROWS_PER_INSERT <= regs.length; i += ROWS_PER_INSERT) stageMany.run(...regs.slice(i, i + ROWS_PER_INSERT));
    for (; i < regs.length; i++) stageOne.run(regs[i]);
  });
  let batch: string[] = [];
  const flush = () => {
    if (batch.length) stageAll(batch);
    batch = [];
  };
  return {
    add(registration: string) {
      batch.push(registration);
      if (batch.length >= BATCH) flush();
    },
    commit() {
      flush();
      db.transaction(() => {
        db.prepare(
          `INSERT OR IGNORE INTO census_registrations (client_id, employee_registration)
           SELECT ?, employee_registration FROM temp.staged_registrations`,
        ).run(clientId);
        db.exec('DELETE FROM temp.staged_registrations');
      })();
    },
    discard() {
      batch = [];
      db.exec('DELETE FROM temp.staged_registrations');
    },
  };
}

export async function processUploadedFile(ctx: ServerContext, row: ImportRow): Promise<ProcessOutcome> {
  const file = uploadedFileOfImport(ctx.db, row.id);
  if (!file?.path) return { status: 'REJECTED', reason: MISSING };

  const unknown: RecordError[] = [];
  let unknownCount = 0;
  let onRecord: (record: CsvRecord, line: number) => void;
  let staging: ReturnType<typeof censusStaging> | undefined;
  if (row.kind === 'census') {
    const s = censusStaging(ctx.db, row.client_id);
    staging = s;
    onRecord = (record) => s.add(record.employeeRegistration);
  } else {
    const known = registrationChecker(ctx.db, row.client_id);
    onRecord = (record, line) => {
      if (known(record.employeeRegistration)) return;
      unknownCount++;
      if (unknown.length < MAX_KEPT_ERRORS) {
        unknown.push({ line, field: 'employeeRegistration', message: unknownEmployeeMessage(record.employeeRegistration) });
      }
    };
  }

  try {
    const result = await readCsvFile(file.path, { kind: row.kind, maxErrors: MAX_KEPT_ERRORS, onRecord });
    if (!result.ok) {
      staging?.discard();
      return { status: 'REJECTED', reason: result.reason };
    }
    staging?.commit();
    // Both lists are in line order and each holds its smallest lines, so the merge's head is exact.
    const errors = [...result.errors, ...unknown].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)).slice(0, MAX_KEPT_ERRORS);
    return {
      status: 'PROCESSED', records: result.rows,
      accepted: result.accepted - unknownCount, rejected: result.rejected + unknownCount, errors,
    };
  } catch (error) {
    staging?.discard();
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'REJECTED', reason: MISSING };
    throw error;
  }
}
