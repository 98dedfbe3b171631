/**
 * Reads a file exactly once, teeing every chunk into the MD5 hash and into the CSV check, so a 100 MB file costs
 * one pass of disk reads and never sits in memory.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { isGone } from '../../lib/fs-errors';
import { folderAnswers, FolderUnreachableError } from './unreachable';

/** Anything that consumes the CSV text; it may stop early (a bad header), the hash still gets every byte. */
export type CsvConsumer<T> = (input: Readable) => Promise<T>;

export type ReadOnceResult<T> = {
  md5: string;
  bytes: number;
  /** size, mtime, ctime and identity (`dev:ino`) of the open file, before it was read. */
  before: { size: number; mtimeMs: number; ctimeMs: number; identity: string };
  /** size and mtime by path after the read; undefined when the file is gone from its path (its folder answers). */
  after?: { size: number; mtimeMs: number };
  csv: T;
};

const CHUNK = 1024 * 1024;

const facts = (s: Stats) => ({ size: s.size, mtimeMs: s.mtimeMs });

/**
 * Reads `path` once. The open handle is read to its end even if the file is deleted meanwhile; `after` then tells
 * the caller that the file disappeared, or that it changed while it was read (size or mtime differ from `before`).
 * Missing from a folder that does not answer (a share that dropped), it throws FolderUnreachableError (unreachable.ts).
 */
export async function readOnce<T>(
  path: string,
  consume: CsvConsumer<T>,
  onProgress?: (bytes: number, total: number) => void,
): Promise<ReadOnceResult<T>> {
  const handle = await open(path, 'r');
  const hash = createHash('md5');
  const tee = new PassThrough({ highWaterMark: CHUNK });
  // A consumer that stops early may leave the tee destroyed; later writes are skipped, never an uncaught error.
  tee.on('error', () => undefined);
  let consumerDone = false;
  const consumed = consume(tee).finally(() => {
    consumerDone = true;
    // Whatever the consumer left unread is dropped; the hash keeps reading the file.
    tee.resume();
  });
  // Surface a consumer failure at the end, not as an unhandled rejection while we are still reading.
  consumed.catch(() => undefined);
  let bytes = 0;
  let before: Stats;
  // The next read is always in flight while the current chunk is hashed and handed on: disk and hash overlap.
  // Each read gets a fresh buffer, since the consumer may still hold the previous one.
  const readChunk = () => handle.read(Buffer.allocUnsafe(CHUNK), 0, CHUNK, null);
  let next: ReturnType<typeof readChunk> | undefined;
  try {
    before = await handle.stat();
    next = readChunk();
    for (;;) {
      const { bytesRead, buffer } = await next;
      next = undefined;
      if (bytesRead === 0) break;
      next = readChunk();
      const chunk = bytesRead < CHUNK ? buffer.subarray(0, bytesRead) : buffer;
      hash.update(chunk);
      bytes += bytesRead;
      onProgress?.(bytes, before.size);
      if (!consumerDone && !tee.write(chunk)) {
        await Promise.race([once(tee, 'drain').catch(() => undefined), consumed.then(() => undefined, () => undefined)]);
      }
    }
    tee.end();
  } catch (error) {
    tee.destroy();
    throw error;
  } finally {
    // A read still in flight (an exception above) must finish before its handle closes.
    await next?.catch(() => undefined);
    await handle.close();
  }
  const csv = await consumed;
  let after: { size: number; mtimeMs: number } | undefined;
  try {
    after = facts(await stat(path));
  } catch (error) {
    if (!isGone(error)) throw error;
    // Gone only from a folder that answers: missing from a share that dropped, nothing can be said of the file.
    if (!(await folderAnswers(dirname(path)))) throw new FolderUnreachableError(dirname(path), error);
  }
  return { md5: hash.digest('hex'), bytes, before: { ...facts(before), ctimeMs: before.ctimeMs, identity: `${before.dev}:${before.ino}` }, ...(after ? { after } : {}), csv };
}
