/**
 * A real small disk, for the tests of a full one: a tmpfs mounted (the tests run as root) on a folder of its own. It is
 * filled to its last byte by a file `filler`, which frees the space again once removed.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './local-server';

const run = promisify(execFile);

export type SmallDisk = {
  /** Where it is mounted. */
  path: string;
  /** Takes its last byte; returns the file that holds it (remove it for space to return). */
  fill(): Promise<string>;
  /** Unmounts it (lazily: a file still open on it does not keep it mounted) and removes its folder. */
  remove(): Promise<void>;
};

/**
 * Mounts a tmpfs of `size` (in mount's words: `1m`, `256k`) on a new temp folder named from `prefix`, or on the
 * existing folder `at` (which remove() then leaves in place); `options` are more mount options (`mode=700`).
 */
export async function mountSmallDisk(
  size: string, where: { prefix?: string; at?: string; options?: string } = {},
): Promise<SmallDisk> {
  const path = where.at ?? await tempDir(where.prefix ?? 'payroll-small-disk-');
  await run('mount', ['-t', 'tmpfs', '-o', [`size=${size}`, ...(where.options ? [where.options] : [])].join(','), 'tmpfs', path]);
  let mounted = true;
  return {
    path,
    async fill() {
      const filler = join(path, 'filler');
      // dd stops with "No space left on device", which is the point.
      await run('sh', ['-c', `dd if=/dev/zero of='${filler}' bs=4k 2>/dev/null || true`]);
      return filler;
    },
    async remove() {
      if (!mounted) return;
      mounted = false;
      await run('umount', ['-l', path]);
      if (!where.at) await rm(path, { recursive: true, force: true });
    },
  };
}
