import { isUtf8 } from 'node:buffer';
import { join } from 'node:path';
import { printableName } from '../../lib/printable-name';
import { UnreadableFileError } from './unreadable-file-error';

/**
 * Whether a file name, as the folder holds it (bytes), cannot be read as text. The uploader names files by text, as
 * Node does: a name that is not UTF-8 is read with each stray byte turned into U+FFFD, and that text names no file, so
 * the file can be neither opened nor moved under it. On Linux a Windows share mounted without `iocharset=utf8`, or a
 * Windows zip unpacked there, leaves such names (`census-M\xfcller.csv`, Latin-1).
 */
export const isUnreadableName = (bytes: Buffer): boolean => !isUtf8(bytes);

/** A name as it was read as text holds U+FFFD where its bytes were not UTF-8 (or where the name itself holds one). */
export const mayBeUnreadableName = (name: string): boolean => name.includes('\uFFFD');

const WHY = 'it is not UTF-8 text, as the names of files copied from some Windows shares are';
const TODO = 'rename it, for example in the file manager, and it is taken';

/**
 * What the clerk is told about a candidate whose name cannot be read (`name` as read as text, with U+FFFD): the file
 * is never opened or moved, and it is said once while it stays. An UnreadableFileError, so a run that must end
 * (`watch --once`) counts it as not taken, as it does a file that cannot be read.
 */
export function unreadableNameError(folder: string, name: string): UnreadableFileError {
  return new UnreadableFileError(
    `${printableName(name)} cannot be read as a file name (${WHY}; \uFFFD marks what cannot be read): ${TODO}. `
      + 'Until then it is not uploaded, and it stays in the folder untouched.',
    join(folder, name),
    `its name cannot be read as a file name (${WHY}): ${TODO}`,
  );
}
