import { describe, expect, it } from 'vitest';
import { submissionRequestSchema } from './files.schema';
import { formatIssues } from './validation';

const item = (over: Record<string, unknown> = {}) => ({
  fileType: '1', referenceDate: '2026-03-31T00:00:00Z', checksum: 'd41d8cd98f00b204e9800998ecf8427e', fileName: 'census.csv', ...over,
});
const messages = (body: unknown) => {
  const r = submissionRequestSchema.safeParse(body);
  return r.success ? [] : formatIssues(r.error);
};

describe('handshake metadata', () => {
  it('accepts a good item, any-case .csv and upper-case checksums', () => {
    expect(messages([item({ fileName: 'CENSUS.CSV', checksum: 'D41D8CD98F00B204E9800998ECF8427E' })])).toEqual([]);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ fileType: '3' }, '[0].fileType: must be one of the file type codes "1" (Census), "2" (Receipt)'],
    [{ fileType: 1 }, '[0].fileType: must be a string'],
    [{ fileType: undefined }, '[0].fileType: is required'],
    [{ referenceDate: '2026-03-31' }, '[0].referenceDate: must be a real date written YYYY-MM-DDT00:00:00Z'],
    [{ referenceDate: '2026-02-30T00:00:00Z' }, '[0].referenceDate: must be a real date written YYYY-MM-DDT00:00:00Z'],
    [{ checksum: 'xyz' }, '[0].checksum: must be a valid MD5 hexadecimal string (32 hex digits)'],
    [{ checksum: null }, '[0].checksum: must be a string'],
    [{ fileName: 'a/b.csv' }, '[0].fileName: must be a plain file name without path separators or ..'],
    [{ fileName: 'census.txt' }, '[0].fileName: must end in .csv'],
    [{ fileName: `${'x'.repeat(252)}.csv` }, '[0].fileName: must be at most 255 characters'],
    [{ extra: 1 }, '[0]: unknown field(s): extra'],
    ...['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'].map((fileType) =>
      [{ fileType }, '[0].fileType: must be one of the file type codes "1" (Census), "2" (Receipt)'] as [Record<string, unknown>, string]),
    ...['a\nb.csv', 'a\rb.csv', 'a\tb.csv', 'a\u0000.csv', 'a\u007f.csv', 'a\u0085.csv', 'inv\u202Evsc.csv', 'a\u2066b\u2069.csv', 'a\u2028b.csv', 'a\u200fb.csv',
      // invisible: zero-width space and joiner, byte-order mark, soft hyphen, invisible times, annotation, language tag;
      // a noncharacter and a lone surrogate
      'a\u200bb.csv', 'a\u200db.csv', '\ufeffa.csv', 'a\u00adb.csv', 'a\u2062b.csv', 'a\ufff9b.csv', 'a\u{e0001}b.csv',
      'a\ufffeb.csv', 'a\ud800b.csv',
      // drawn as nothing too (Default_Ignorable_Code_Point): Hangul fillers, combining grapheme joiner, variation selectors
      'invoice\u3164.csv', 'a\u115fb.csv', 'a\u1160b.csv', 'a\uffa0b.csv', 'a\u034fb.csv', 'a\u17b4b.csv', 'a\ufe0fb.csv', 'a\u{e0100}b.csv']
      .map((fileName) => [{ fileName }, '[0].fileName: must not hold control characters, line breaks, or invisible or bidirectional marks'] as [Record<string, unknown>, string]),
  ])('refuses %j, naming the item and field', (over, message) => {
    expect(messages([item(over)])).toEqual([message]);
  });

  it('takes 1 to 100 items', () => {
    expect(messages([])).toEqual(['the array must hold at least one file']);
    expect(messages(Array.from({ length: 100 }, () => item()))).toEqual([]);
    expect(messages(Array.from({ length: 101 }, () => item()))).toEqual(['at most 100 files per request']);
  });
});
