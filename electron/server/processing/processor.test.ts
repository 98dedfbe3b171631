import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/helpers/server-db';
import { createLogger } from '../../lib/logger';
import { createGroupCommit, type GroupCommit } from '../db/group-commit';
import { getImport, insertImport, type ImportRow } from '../db/imports-repo';
import { createProcessor } from './processor';

describe('import processor', () => {
  it('goes on with later imports after a write failed, leaving the failed one to be resumed', async () => {
    const db = await testDatabase();
    const real = createGroupCommit(db);
    let failures = 1;
    // The first group commit fails as a full disk would; every later one is the real thing.
    const writes: GroupCommit = {
      run: (write) => (failures-- > 0 ? Promise.reject(new Error('SQLITE_FULL: database or disk is full')) : real.run(write)),
    };
    const finished: string[] = [];
    const processor = createProcessor({
      db, writes, logger: createLogger('test-processor', () => undefined),
      handlers: { json: () => ({ status: 'PROCESSED', records: 1, accepted: 1, rejected: 0, errors: [] }), file: () => Promise.reject(new Error('no files here')) },
      onFinished: (row: ImportRow) => finished.push(row.id),
    });
    const add = (id: string) => {
      insertImport(db, { id, client_id: 'c', kind: 'census', source: 'json', status: 'QUEUED', records: 1, payload: '[{}]' });
      processor.schedule(id);
    };
    add('first');
    await processor.idle();
    add('second');
    await processor.idle();
    expect(finished).toEqual(['second']);
    expect(getImport(db, 'first')?.status).toBe('QUEUED');
    expect(getImport(db, 'second')?.status).toBe('PROCESSED');
    await processor.stop();
  });
});
