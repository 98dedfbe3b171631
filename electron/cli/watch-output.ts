/** What `watch` shows: a progress bar on a terminal, one line per result otherwise, or JSON lines with --json. */
import type { Job } from '../core/queue';
import type { Session, SessionEvents } from '../core/session';
import { setBeforeLogLine } from '../lib/logger';
import { printableName, printableText } from '../lib/printable-name';

const BAR = 24;
/** Row warnings listed in the plain output; the rest are in `<name>.warnings.txt` beside the archived file. */
const WARNINGS_SHOWN = 20;

const clock = (at: number) => new Date(at).toLocaleTimeString();

/** The one line (and, for row warnings, the few lines under it) that tells a job's outcome. */
export function describeResult(job: Job): string {
  const at = clock(job.archivedAt ?? job.stateChangedAt);
  const where = job.archivedPath ? ` -> ${printableName(job.archivedPath)}` : '';
  // A reason may quote a file's own text (a header line that ends in a lone CR): it never moves the cursor.
  const why = job.lastError ? `: ${printableText(job.lastError)}` : '';
  const id = job.importId ? ` (import ${job.importId})` : '';
  const lines = [`${at} ${job.state.padEnd(9)} ${printableName(job.name)}${id}${why}${where}`];
  if (job.state === 'uploaded' && job.warningCount > 0) {
    lines.push(`  ${job.warningCount} row warning(s): the service refuses those rows and takes the others${job.warningsPath ? ` (listed in ${printableName(job.warningsPath)})` : ''}`);
    for (const w of job.warnings.slice(0, WARNINGS_SHOWN)) lines.push(`    ${w.line !== undefined ? `line ${w.line}: ` : ''}${printableText(w.message)}`);
    if (job.warningCount > WARNINGS_SHOWN) lines.push(`    ... and ${job.warningCount - WARNINGS_SHOWN} more`);
  }
  return lines.join('\n');
}

/** The events `watch` shows, by the names its `--json` lines give them. */
const JSON_EVENTS = { job: 'job', progress: 'progress', result: 'result', batch: 'batch', folder: 'folder', ignored: 'ignored', warning: 'notice', error: 'error' } as const;

/**
 * Write errors of the output streams: a reader that closed its end of a pipe (EPIPE) stops the run quietly through
 * `onClosed`, once; without a listener the stream's 'error' event would end the process with a stack trace. The
 * listener stays after the output is detached: a stream says a failed write a moment later, which may be after.
 */
function watchForClosedOutput(streams: NodeJS.WritableStream[], onClosed: () => void): () => void {
  let closed = false;
  let attached = true;
  const onError = (error: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    if (!attached) return;
    // Anything else than a closed reader is said where it can still be read.
    if (error.code !== 'EPIPE') process.stderr.write(`payroll-uploader watch: output failed (${error.message}); stopping\n`);
    onClosed();
  };
  for (const stream of new Set(streams)) stream.on('error', onError);
  return () => {
    attached = false;
  };
}

/**
 * Shows the session's events on `out` and `err`. `onClosed` is what a closed output does: the reader went away
 * (`watch --json | head -1`), so the caller stops the run as Ctrl+C would, in order.
 */
export function attachOutput(
  session: Pick<Session, 'on'>,
  mode: { json: boolean; tty: boolean },
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  onClosed: () => void,
): () => void {
  const offs: (() => void)[] = [watchForClosedOutput([out, err], onClosed)];
  if (mode.json) {
    for (const [name, shown] of Object.entries(JSON_EVENTS) as [keyof typeof JSON_EVENTS, string][]) {
      offs.push(session.on(name, (payload: SessionEvents[typeof name]) => {
        const data = payload instanceof Error ? { message: payload.message } : typeof payload === 'string' ? { message: payload } : payload;
        out.write(`${JSON.stringify({ event: shown, at: new Date().toISOString(), data })}\n`);
      }));
    }
    return () => offs.forEach((off) => off());
  }
  let barShown = false;
  const clearBar = () => {
    if (barShown) err.write('\r\x1b[2K');
    barShown = false;
  };
  // What the log has said in this turn of the event loop: the session logs most of the errors and notices it reports,
  // and they go to the same standard error, so they are not said a second time.
  const justLogged = new Set<string>();
  setBeforeLogLine((entry) => {
    // Log lines clear the bar first; the next progress event draws it again.
    clearBar();
    if (entry.level === 'debug') return;
    if (justLogged.size === 0) setImmediate(() => justLogged.clear());
    justLogged.add(entry.message);
  });
  const names = new Map<number, string>();
  offs.push(session.on('job', (job) => names.set(job.id, printableName(job.name))));
  if (mode.tty) {
    offs.push(session.on('progress', (p) => {
      const share = p.total > 0 ? Math.min(1, p.bytes / p.total) : 1;
      const filled = Math.round(share * BAR);
      err.write(`\r\x1b[2K${p.phase === 'hashing' ? 'checking ' : 'uploading'} [${'='.repeat(filled)}${' '.repeat(BAR - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${names.get(p.id) ?? ''}`);
      barShown = true;
    }));
  }
  const said = new Set<number>();
  offs.push(session.on('result', (job) => {
    // Each outcome is said once (a restart may report a job filed away before it again).
    if (said.has(job.id)) return;
    said.add(job.id);
    clearBar();
    // A refusal is a failure: on standard error, like every other failure.
    (job.state === 'rejected' ? err : out).write(`${describeResult(job)}\n`);
  }));
  // Said when the watched folder goes or comes back; the command itself says a folder missing at the start. A folder
  // this user may not list is said by its error (once, with what to do); here only that it is over.
  let lastState: string | undefined;
  offs.push(session.on('folder', ({ folder, state }) => {
    const before = lastState;
    lastState = state;
    if (folder === undefined || before === undefined) return;
    if (state === 'missing' && before === 'watching') {
      clearBar();
      err.write(`the folder ${printableName(folder)} is gone; waiting for it to come back\n`);
    } else if (state === 'watching' && before === 'missing') {
      clearBar();
      err.write(`the folder ${printableName(folder)} is back; watching again\n`);
    } else if (state === 'watching' && before === 'unreadable') {
      clearBar();
      err.write(`the folder ${printableName(folder)} can be read now; watching it\n`);
    }
  }));
  offs.push(session.on('ignored', ({ name }) => {
    clearBar();
    err.write(`ignored: ${printableName(name)} is not a .csv export\n`);
  }));
  offs.push(session.on('warning', (warning) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (justLogged.has(text)) return;
    clearBar();
    err.write(`${text}\n`);
  }));
  offs.push(session.on('error', (error) => {
    if (justLogged.has(error.message)) return;
    clearBar();
    err.write(`warning: ${error.message}\n`);
  }));
  return () => {
    clearBar();
    setBeforeLogLine(undefined);
    offs.forEach((off) => off());
  };
}
