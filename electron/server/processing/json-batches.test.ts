import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/helpers/server-db';
import type { ImportRow } from '../db/imports-repo';
import { processJsonBatch } from './json-batches';

const batch = (clientId: string, kind: 'census' | 'receipt', registrations: string[]) =>
  ({ id: `${kind}-${registrations.length}`, client_id: clientId, kind, source: 'json', parsed: registrations.map((employeeRegistration) => ({ employeeRegistration })) }) as ImportRow;

describe('JSON batch processing', () => {
  it('remembers every registration of a large census batch, chunk edges and the tail included, for this client only', async () => {
    const db = await testDatabase();
    const registrations = Array.from({ length: 601 }, (_, i) => `E-${i}`);
    registrations.push('E-0', 'E-249'); // repeated within the batch: remembered once
    const census = db.transaction(() => processJsonBatch(db, batch('acme', 'census', registrations)))();
    expect(census).toMatchObject({ status: 'PROCESSED', records: 603, accepted: 603, rejected: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM census_registrations WHERE client_id = ?').get('acme')).toMatchObject({ n: 601 });

    const receipts = processJsonBatch(db, batch('acme', 'receipt', ['E-0', 'E-249', 'E-250', 'E-499', 'E-500', 'E-600', 'E-601']));
    expect(receipts).toMatchObject({ status: 'PROCESSED', accepted: 6, rejected: 1 });
    expect(receipts.status === 'PROCESSED' && receipts.errors.map((e) => e.index)).toEqual([6]);
    const other = processJsonBatch(db, batch('other', 'receipt', ['E-0']));
    expect(other).toMatchObject({ accepted: 0, rejected: 1 });
  });
});
