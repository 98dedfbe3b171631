import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/helpers/server-db';
import { createGroupCommit } from './group-commit';

describe('group commit', () => {
  it('commits concurrent writes in one transaction and answers each caller after the commit', async () => {
    const opened = await testDatabase();
    const writes = createGroupCommit(opened);
    const insert = opened.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    const inTransaction: boolean[] = [];
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => writes.run(() => {
      inTransaction.push(opened.inTransaction);
      insert.run(`k${i}`, 'v');
      return i;
    })));
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(inTransaction.every(Boolean)).toBe(true);
    expect((opened.prepare('SELECT count(*) AS n FROM meta WHERE key LIKE ?').get('k%') as { n: number }).n).toBe(10);
  });

  it('a failing write fails alone: its neighbours are still committed', async () => {
    const opened = await testDatabase();
    const writes = createGroupCommit(opened);
    const insert = opened.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    const outcomes = await Promise.allSettled([
      writes.run(() => insert.run('a', '1')),
      writes.run(() => insert.run('a', 'duplicate key')),
      writes.run(() => insert.run('b', '2')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(opened.prepare("SELECT key, value FROM meta WHERE key IN ('a', 'b') ORDER BY key").all().map((r) => ({ ...(r as object), _metadata: undefined })))
      .toEqual([{ key: 'a', value: '1', _metadata: undefined }, { key: 'b', value: '2', _metadata: undefined }]);
  });
});
