/**
 * One version of a watched file, as the watcher hands it to the upload queue: the one `StableFile` type of the core
 * (the watcher and the queue share it).
 */
export type StableFile = {
  path: string;
  name: string;
  size: number;
  mtimeMs: number;
  /** `dev:ino` of the file when it was seen (absent when not known). */
  identity?: string;
  /** The file's path in the watched folder when it has been claimed into `.processing/<owner>/` (then `path` is the claim). */
  claimedFrom?: string;
};

/** `dev:ino` of a file's stats: which file this is, whatever its name. */
export const identityOf = (stats: { dev: number; ino: number }): string => `${stats.dev}:${stats.ino}`;
