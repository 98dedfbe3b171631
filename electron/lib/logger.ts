/** A small stderr logger with a per-service prefix. Level from PAYROLL_LOG_LEVEL (debug|info|warn|error|silent). */

export type Logger = {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  child(prefix: string): Logger;
};

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = keyof typeof LEVELS;

function threshold(): number {
  const wanted = (process.env.PAYROLL_LOG_LEVEL ?? 'info') as Level;
  return LEVELS[wanted] ?? LEVELS.info;
}

let beforeLine: (() => void) | undefined;

/**
 * Called before every log line goes to stderr: a terminal progress bar clears its line there, so a log line never
 * lands in the middle of the bar. `undefined` removes the hook.
 */
export function setBeforeLogLine(hook: (() => void) | undefined): void {
  beforeLine = hook;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DD HH:MM:SS.mmm` in the machine's own time zone: the clerk reads the logs on local time. */
export function localTimestamp(at = new Date()): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
}

const toStderr = (line: string): void => {
  beforeLine?.();
  process.stderr.write(line);
};

export function createLogger(prefix: string, write: (line: string) => void = toStderr): Logger {
  const at = threshold();
  const log = (level: Exclude<Level, 'silent'>) => (message: string) => {
    if (LEVELS[level] >= at) write(`${localTimestamp()} ${level.toUpperCase()} [${prefix}] ${message}\n`);
  };
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (sub) => createLogger(`${prefix}:${sub}`, write),
  };
}
