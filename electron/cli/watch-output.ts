/** What `watch` shows: a progress bar on a terminal, one line per result otherwise, or JSON lines with --json. */
import type { AppEvents, PayrollApp } from '../core/app';
import type { Job } from '../core/queue';

const BAR = 24;

function describe(job: Job): string {
  const where = job.archivedPath ? ` -> ${job.archivedPath}` : '';
  const why = job.lastError ? `: ${job.lastError}` : '';
  const warnings = job.warnings?.length ? ` (${job.warnings.length} row warning(s))` : '';
  return `${job.state.padEnd(9)} ${job.name}${warnings}${why}${where}`;
}

export function attachOutput(app: PayrollApp, mode: { json: boolean; tty: boolean }, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): () => void {
  const offs: (() => void)[] = [];
  if (mode.json) {
    for (const name of ['job', 'progress', 'result', 'batch', 'folder', 'error'] as const) {
      offs.push(app.on(name, (payload: AppEvents[typeof name]) => {
        const data = payload instanceof Error ? { message: payload.message } : payload;
        out.write(`${JSON.stringify({ event: name, at: new Date().toISOString(), data })}\n`);
      }));
    }
    return () => offs.forEach((off) => off());
  }
  let barShown = false;
  const clearBar = () => {
    if (barShown) err.write('\r\x1b[2K');
    barShown = false;
  };
  const names = new Map<number, string>();
  offs.push(app.on('job', (job) => names.set(job.id, job.name)));
  if (mode.tty) {
    offs.push(app.on('progress', (p) => {
      const share = p.total > 0 ? Math.min(1, p.bytes / p.total) : 1;
      const filled = Math.round(share * BAR);
      err.write(`\r\x1b[2K${p.phase === 'hashing' ? 'checking ' : 'uploading'} [${'='.repeat(filled)}${' '.repeat(BAR - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${names.get(p.id) ?? ''}`);
      barShown = true;
    }));
  }
  offs.push(app.on('result', (job) => {
    clearBar();
    out.write(`${describe(job)}\n`);
  }));
  offs.push(app.on('folder', ({ folder, present }) => {
    clearBar();
    err.write(present ? `the folder ${folder} is back; watching again\n` : `the folder ${folder} is gone; waiting for it to come back\n`);
  }));
  offs.push(app.on('error', (error) => {
    clearBar();
    err.write(`warning: ${error.message}\n`);
  }));
  return () => {
    clearBar();
    offs.forEach((off) => off());
  };
}
