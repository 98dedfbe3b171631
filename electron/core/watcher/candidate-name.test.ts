import { describe, expect, it } from 'vitest';
import { isCandidateName } from './candidate-name';

describe('isCandidateName', () => {
  it.each(['census.csv', 'RECEIPTS.CSV', 'Payroll 2024-05-01.Csv', 'a.b.csv', 'x.csv'])('takes %s', (name) => {
    expect(isCandidateName(name)).toBe(true);
  });

  it.each([
    ['hidden file', '.census.csv'],
    ['Office lock file', '~$census.csv'],
    ['temporary file', 'census.csv.tmp'],
    ['partial download', 'census.csv.part'],
    ['upper-case temporary suffix', 'census.csv.TMP'],
    ['other extension', 'census.xlsx'],
    ['csv without a dot', 'census_csv'],
    ['bare extension', '.csv'],
    ['empty name', ''],
    ['a path, not a name', 'uploaded/census.csv'],
    ['a Windows path', 'uploaded\\census.csv'],
  ])('refuses a %s (%s)', (_why, name) => {
    expect(isCandidateName(name)).toBe(false);
  });
});
