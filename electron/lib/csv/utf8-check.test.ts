import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUtf8Check } from './utf8-check';

/** The check over `bytes` cut at `cuts`, as the chunks of a stream. */
function checkChunks(bytes: Uint8Array, cuts: number[]): boolean {
  const check = createUtf8Check();
  let from = 0;
  for (const at of [...cuts.filter((c) => c <= bytes.length).sort((a, b) => a - b), bytes.length]) {
    if (!check.push(Buffer.from(bytes.subarray(from, at)))) return false;
    from = at;
  }
  return check.end();
}

/** The reference: a fatal TextDecoder over the whole text. */
function decodes(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

describe('createUtf8Check', () => {
  it('accepts characters of every length split at every byte, and refuses what a fatal TextDecoder refuses', () => {
    const text = Buffer.from('a é € 😀 Łukasz\n');
    for (let i = 0; i <= text.length; i++) expect(checkChunks(text, [i])).toBe(true);
    expect(checkChunks(text, Array.from({ length: text.length }, (_, i) => i))).toBe(true);
    for (const bad of [[0xe9], [0xc3], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]]) {
      const bytes = Buffer.concat([text, Buffer.from(bad)]);
      expect(decodes(bytes)).toBe(false);
      for (let i = text.length - 1; i <= bytes.length; i++) expect(checkChunks(bytes, [i])).toBe(false);
    }
  });

  it('agrees with a fatal TextDecoder on any bytes, however they are chunked', () => {
    const nearUtf8 = fc.array(fc.oneof(
      fc.string({ unit: 'grapheme' }).map((s) => [...Buffer.from(s)]),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 3 }),
    )).map((parts) => Uint8Array.from(parts.flat()));
    fc.assert(fc.property(nearUtf8, fc.array(fc.nat({ max: 64 }), { maxLength: 8 }), (bytes, cuts) => {
      expect(checkChunks(bytes, cuts)).toBe(decodes(bytes));
    }), { numRuns: 2000 });
  });
});
