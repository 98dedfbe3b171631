/**
 * Strict UTF-8 validation of a byte stream, chunk by chunk. Node's isUtf8 (simdutf) is about 30 times faster than a
 * fatal TextDecoder, which also builds a string nobody reads: on a 100 MB file that is ~150 ms against ~5 ms.
 */
import { isUtf8 } from 'node:buffer';

const EMPTY = Buffer.alloc(0);

/** Bytes a sequence starting with `lead` has (0: not a lead byte, i.e. a continuation byte). */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead < 0xc0) return 0;
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  return 4;
}

/** Where the last sequence of `bytes` starts if the chunk cuts it short, else bytes.length. */
function cutAt(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 4; i--) {
    const need = sequenceLength(bytes[i] as number);
    if (need === 0) continue;
    return bytes.length - i < need ? i : bytes.length;
  }
  // Only continuation bytes at the end: complete or not, isUtf8 judges them with what comes before.
  return bytes.length;
}

export type Utf8Check = {
  /** false once the bytes so far cannot be UTF-8. */
  push(chunk: Buffer): boolean;
  /** false when the stream ends inside a character. */
  end(): boolean;
};

/** A check for one stream; a character may be split across any number of chunks. */
export function createUtf8Check(): Utf8Check {
  let carry: Buffer = EMPTY;
  return {
    push(chunk) {
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const cut = cutAt(bytes);
      // Copied: the caller may reuse the chunk's memory.
      carry = cut < bytes.length ? Buffer.from(bytes.subarray(cut)) : EMPTY;
      return isUtf8(bytes.subarray(0, cut));
    },
    end: () => carry.length === 0,
  };
}
