/** A wrong command line: the CLI prints the message and exits with code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * 3: another uploader already works on this data folder (a scheduled run while the app runs, say). 130: stopped with
 * Ctrl+C at a prompt, as shells report a command ended by an interrupt (128 + SIGINT's number 2). 4: `watch --once`
 * uploaded every file and none failed, but what the service made of one or more is not known yet (its processing
 * result did not come in time): not a success a scheduled task may report, nor a failure to send again.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, busy: 3, resultUnknown: 4, interrupted: 130 } as const;
