import type { FileHandle } from 'node:fs/promises';

/**
 * Files up to this size are looked into for a data line; a larger one holds more than a header. A header of a few
 * hundred columns fits, and the file is not read beyond it.
 */
export const FIRST_LINE_PEEK_BYTES = 16 * 1024;

const CR = 0x0d;
const LF = 0x0a;

/**
 * Whether the first `size` bytes of a file hold at most one line (a header written before the exporter ran its
 * query): no line break but trailing ones. False for a file over FIRST_LINE_PEEK_BYTES, which is not read.
 */
export async function holdsFirstLineOnly(handle: FileHandle, size: number): Promise<boolean> {
  if (size > FIRST_LINE_PEEK_BYTES) return false;
  const bytes = Buffer.alloc(size);
  let read = 0;
  while (read < size) {
    const { bytesRead } = await handle.read(bytes, read, size - read, read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  let end = read;
  while (end > 0 && (bytes[end - 1] === CR || bytes[end - 1] === LF)) end -= 1;
  const text = bytes.subarray(0, end);
  return !text.includes(LF) && !text.includes(CR);
}
