import { describe, expect, it } from 'vitest';
import { UNSAFE_FILE_NAME_CHARS } from '../../shared';
import { printableName } from './printable-name';

describe('printableName', () => {
  it('escapes bidirectional overrides, line breaks and other control characters', () => {
    expect(printableName('pay\u202egsv.csv')).toBe('pay\\u202egsv.csv');
    expect(printableName('a\nb\r\tc\u0000\u2028\u2066.csv')).toBe('a\\u000ab\\u000d\\u0009c\\u0000\\u2028\\u2066.csv');
  });

  it('escapes invisible characters, noncharacters and lone surrogates, beyond U+FFFF too', () => {
    expect(printableName('a\u200bb\u00ad\ufeff\ufffe\ud800\u{e0001}.csv')).toBe('a\\u200bb\\u00ad\\ufeff\\ufffe\\ud800\\u{e0001}.csv');
  });

  it('escapes exactly what a handshake refuses in a file name', () => {
    const differ: string[] = [];
    for (let code = 0; code <= 0x10ffff; code += code < 0x30000 ? 1 : 0x1000) {
      const c = String.fromCodePoint(code);
      if ((printableName(c) !== c) !== (UNSAFE_FILE_NAME_CHARS.test(c) || c === '\\')) differ.push(`U+${code.toString(16)}`);
    }
    expect(differ).toEqual([]);
  });

  it('leaves ordinary names, accents included, as they are and doubles a backslash', () => {
    expect(printableName('folha_março_2026-03.csv')).toBe('folha_março_2026-03.csv');
    expect(printableName('a\\u202e.csv')).toBe('a\\\\u202e.csv');
  });
});
