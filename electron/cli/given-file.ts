/**
 * A file named on the command line (a --clients-file, a TLS certificate, the JSON file of `send`), read whole, or what
 * is wrong with it said in words: the caller puts the flag and the file's name before them. A folder, a named pipe or
 * a device is refused before anything is read (a pipe with no writer would otherwise hold the command forever).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { otherFileKind } from '../lib/file-kind';
import { describeError, errorCode } from '../lib/fs-errors';

export class GivenFileError extends Error {
  constructor(
    /** What is wrong, to follow the file's name: "is a folder, not a file". */
    readonly problem: string,
    /** The file's size, when it is the problem. */
    readonly size?: number,
    /** Nothing is there by that name. */
    readonly missing = false,
  ) {
    super(problem);
    this.name = 'GivenFileError';
  }
}

function openProblem(error: unknown): string {
  switch (errorCode(error)) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'does not exist';
    case 'EISDIR':
      return 'is a folder, not a file: name the file itself';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read: this user is not allowed to open it (permission denied); give this user read access, or run the command as a user who has it';
    case 'ELOOP':
      return 'is a link that leads back to itself';
    default:
      return `cannot be read: ${describeError(error)}`;
  }
}

function kindProblem(stats: Stats): string | undefined {
  const kind = otherFileKind(stats);
  if (kind === undefined) return undefined;
  return kind === 'a folder' ? 'is a folder, not a file: name the file itself' : `is ${kind}, not a saved file; give a saved file`;
}

/** The file's bytes, at most `maxBytes` of them (a bigger file is refused with its size), and its stats. */
export function readGivenFile(file: string, maxBytes: number): { bytes: Buffer; stats: Stats } {
  let fd: number;
  try {
    // Non-blocking, so opening a named pipe no one writes to returns at once and is refused below.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = errorCode(error);
    throw new GivenFileError(openProblem(error), undefined, code === 'ENOENT' || code === 'ENOTDIR');
  }
  try {
    const stats = fstatSync(fd);
    const problem = kindProblem(stats);
    if (problem) throw new GivenFileError(problem);
    if (stats.size > maxBytes) throw new GivenFileError(`has ${stats.size} bytes, more than the ${maxBytes} it may have`, stats.size);
    const bytes = Buffer.alloc(stats.size);
    let read = 0;
    try {
      for (let n; read < bytes.length && (n = readSync(fd, bytes, read, bytes.length - read, read)) > 0;) read += n;
    } catch (error) {
      throw new GivenFileError(openProblem(error));
    }
    return { bytes: bytes.subarray(0, read), stats };
  } finally {
    closeSync(fd);
  }
}

