/**
 * Whether another process's heartbeat has stopped: the time it renews on a file or folder (its mtime), read now and
 * then by this process. That time is written by the clock of the machine that beats, which may be minutes or hours off
 * this one's, and either clock may be set forward or back meanwhile: so its value is never compared with this
 * machine's time. Only whether it changed is noted, and how long it has stayed as it is is counted on this machine's
 * monotonic clock, from when this process first saw it so. Used by the data folder's lock (process-lock.ts) and by the
 * claim folders of a shared export folder (folder-claims.ts).
 */
export type HeartbeatWatch = {
  /**
   * Notes the heartbeat `beat` of `key` as seen now; returns for how many milliseconds this process has seen that same
   * beat (0 when it is seen for the first time, or has just changed).
   */
  stillFor(key: string, beat: number | string): number;
  /** Forgets `key` (its holder is gone, or taken over): the next look starts afresh. */
  forget(key: string): void;
};

export function createHeartbeatWatch(): HeartbeatWatch {
  const seen = new Map<string, { beat: number | string; since: number }>();
  return {
    stillFor(key, beat) {
      const now = performance.now();
      const last = seen.get(key);
      if (!last || last.beat !== beat) {
        seen.set(key, { beat, since: now });
        return 0;
      }
      return now - last.since;
    },
    forget(key) {
      seen.delete(key);
    },
  };
}
