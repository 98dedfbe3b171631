import { describe, expect, it } from 'vitest';
import { dateFromName, fileTypeFromName, referenceDateOf } from './file-facts';

const rules = [{ contains: 'census', fileType: '1' as const }, { contains: 'RECEIPT', fileType: '2' as const }];

describe('file facts from the name', () => {
  it('applies the first matching rule, ignoring case', () => {
    expect(fileTypeFromName('Weekly-CENSUS.csv', rules)).toBe('1');
    expect(fileTypeFromName('receipts.CSV', rules)).toBe('2');
    expect(fileTypeFromName('export.csv', rules)).toBeUndefined();
  });

  it('finds real dates written YYYY-MM-DD or YYYYMMDD', () => {
    expect(dateFromName('census-2026-03-15.csv')).toBe('2026-03-15');
    expect(dateFromName('receipt_20260315_v2.csv')).toBe('2026-03-15');
    expect(dateFromName('census-2026-02-30.csv')).toBeUndefined();
    expect(dateFromName('census-2026-0315.csv')).toBeUndefined();
    expect(dateFromName('batch-120260315.csv')).toBeUndefined();
    expect(dateFromName('20261301-then-2026-01-02.csv')).toBe('2026-01-02');
  });

  it('falls back to the day the file was found', () => {
    expect(referenceDateOf('census.csv', '2026-04-01')).toBe('2026-04-01T00:00:00Z');
    expect(referenceDateOf('census 20250101.csv', '2026-04-01')).toBe('2025-01-01T00:00:00Z');
  });
});
