/**
 * What a path is when it is not a regular file, in words for a message ("it is a named pipe, not a saved file"):
 * one wording for the watched folder, the files named on the command line and the settings file.
 */
import type { Stats } from 'node:fs';

/** The kind of a path that is not a regular file ("a named pipe"); undefined for a regular file. */
export function otherFileKind(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isBlockDevice() || stats.isCharacterDevice()) return 'a device';
  return 'something other than a file';
}
