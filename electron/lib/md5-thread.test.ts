import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IN_FLIGHT_BYTES, md5OnThread } from './md5-thread';

const md5 = (chunks: Uint8Array[]) => chunks.reduce((hash, chunk) => hash.update(chunk), createHash('md5')).digest('hex');

/** Feeds the chunks as a receiving route does: waiting whenever the thread says so. */
async function hashed(chunks: Uint8Array[]): Promise<string> {
  const hash = md5OnThread();
  for (const chunk of chunks) await hash.update(chunk);
  return hash.digest();
}

describe('MD5 on a worker thread', () => {
  it('gives the digest of the bytes, whatever their chunks, and of nothing at all', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) => randomBytes(1 + ((i * 7919) % 70_000)));
    expect(await hashed(chunks)).toBe(md5(chunks));
    expect(await hashed([])).toBe('d41d8cd98f00b204e9800998ecf8427e');
    // Slices of a larger buffer (a socket's reads may be): only the slice is hashed.
    const whole = randomBytes(10_000);
    const slices = [whole.subarray(100, 5000), whole.subarray(5000, 9000)];
    expect(await hashed(slices)).toBe(md5(slices));
  });

  it('keeps concurrent hashes apart', async () => {
    const a = Array.from({ length: 30 }, () => randomBytes(50_000));
    const b = Array.from({ length: 30 }, () => randomBytes(50_000));
    const [ha, hb] = [md5OnThread(), md5OnThread()];
    for (let i = 0; i < 30; i++) {
      await ha.update(a[i]!);
      await hb.update(b[i]!);
    }
    expect(await Promise.all([hb.digest(), ha.digest()])).toEqual([md5(b), md5(a)]);
  });

  it('leaves the caller\'s bytes as they were, as it hashes a copy', async () => {
    const chunk = randomBytes(100_000);
    const before = Buffer.from(chunk);
    const hash = md5OnThread();
    await hash.update(chunk);
    expect(chunk.equals(before)).toBe(true);
    expect(await hash.digest()).toBe(md5([before]));
  });

  it('holds the caller back once more than the bytes in flight wait for the thread', async () => {
    const hash = md5OnThread();
    const chunk = randomBytes(1024 * 1024);
    const waits: (Promise<void> | undefined)[] = [];
    for (let sent = 0; sent <= IN_FLIGHT_BYTES; sent += chunk.length) waits.push(hash.update(chunk));
    // All sent in one turn: the thread has hashed none yet, so the last one must wait.
    expect(waits.slice(0, -1).every((w) => w === undefined)).toBe(true);
    expect(waits.at(-1)).toBeInstanceOf(Promise);
    await waits.at(-1);
    expect(await hash.digest()).toBe(md5(Array.from({ length: waits.length }, () => chunk)));
  });

  it('a dropped hash gives no digest and does not disturb the next one', async () => {
    const dropped = md5OnThread();
    await dropped.update(randomBytes(1000));
    dropped.drop();
    await expect(dropped.digest()).rejects.toThrow(/over/);
    const chunks = [randomBytes(2000)];
    expect(await hashed(chunks)).toBe(md5(chunks));
  });
});
