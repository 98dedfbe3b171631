/** Asynchronous processing of direct JSON batches (docs/service-decisions.md §3). */
import type { RecordError } from '../../../shared';
import type { Db } from '../db/database';
import { statement } from '../db/database';
import type { ImportRow, ProcessOutcome } from '../db/imports-repo';
import { importRecords } from '../db/imports-repo';

type Registration = { employeeRegistration: string };

const REMEMBER = 'INSERT OR IGNORE INTO census_registrations (client_id, employee_registration) VALUES ';
/** Registrations per statement: each call into SQLite costs more than inserting a row (a 5 MB batch has ~13,000). */
const ROWS_PER_INSERT = 250;

/** Remembers the employee registrations a census import carried, for later receipt checks (call inside a transaction). */
export function rememberRegistrations(db: Db, clientId: string, registrations: Iterable<string>): void {
  const all = [...registrations];
  let i = 0;
  if (all.length >= ROWS_PER_INSERT) {
    const many = statement(db, REMEMBER + Array.from({ length: ROWS_PER_INSERT }, () => '(?, ?)').join(', '));
    const params: string[] = new Array<string>(ROWS_PER_INSERT * 2);
    for (; i + ROWS_PER_INSERT <= all.length; i += ROWS_PER_INSERT) {
      for (let j = 0; j < ROWS_PER_INSERT; j++) {
        params[2 * j] = clientId;
        params[2 * j + 1] = all[i + j]!;
      }
      many.run(...params);
    }
  }
  const one = statement(db, `${REMEMBER}(?, ?)`);
  for (; i < all.length; i++) one.run(clientId, all[i]);
}

/** Whether a receipt's employee is known from any census import of the client. */
export function registrationChecker(db: Db, clientId: string): (registration: string) => boolean {
  const find = statement(db, 'SELECT 1 FROM census_registrations WHERE client_id = ? AND employee_registration = ?');
  return (registration) => find.get(clientId, registration) !== undefined;
}

export const unknownEmployeeMessage = (registration: string) =>
  `employeeRegistration ${registration} is not known from any census import; send the employee's census record first`;

export function processJsonBatch(db: Db, row: ImportRow): ProcessOutcome {
  const records = importRecords(row) as Registration[];
  if (row.kind === 'census') {
    rememberRegistrations(db, row.client_id, records.map((r) => r.employeeRegistration));
    return { status: 'PROCESSED', records: records.length, accepted: records.length, rejected: 0, errors: [] };
  }
  const known = registrationChecker(db, row.client_id);
  const errors: RecordError[] = [];
  records.forEach((r, index) => {
    if (!known(r.employeeRegistration)) {
      errors.push({ index, field: 'employeeRegistration', message: unknownEmployeeMessage(r.employeeRegistration) });
    }
  });
  return { status: 'PROCESSED', records: records.length, accepted: records.length - errors.length, rejected: errors.length, errors };
}
