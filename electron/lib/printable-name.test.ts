import { describe, expect, it } from 'vitest';
import { printableName } from './printable-name';

describe('printableName', () => {
  it('escapes bidirectional overrides, line breaks and other control characters', () => {
    expect(printableName('pay\u202egsv.csv')).toBe('pay\\u202egsv.csv');
    expect(printableName('a\nb\r\tc\u0000\u2028\u2066.csv')).toBe('a\\u000ab\\u000d\\u0009c\\u0000\\u2028\\u2066.csv');
  });

  it('leaves ordinary names, accents included, as they are and doubles a backslash', () => {
    expect(printableName('folha_março_2026-03.csv')).toBe('folha_março_2026-03.csv');
    expect(printableName('a\\u202e.csv')).toBe('a\\\\u202e.csv');
  });
});
