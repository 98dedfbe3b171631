/** A small stderr logger with a per-service prefix. Level from PAYROLL_LOG_LEVEL (debug|info|warn|error|silent). */
import { printableText } from './printable-name';

export type Logger = {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  child(prefix: string): Logger;
};

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = keyof typeof LEVELS;

const isLevel = (name: string): name is Level => Object.hasOwn(LEVELS, name);
let refusedLevel: string | undefined;

/**
 * The level PAYROLL_LOG_LEVEL names, in any case. A value that names none (a typo, `verbose`) is said once on stderr,
 * with the levels there are, and `info` is used: silently taken as the default, `PAYROLL_LOG_LEVEL=DEBUG` looked like a
 * logger that had nothing to say. (A bare lookup also took `toString` for a level and then logged nothing at all.)
 */
function threshold(): number {
  const given = process.env.PAYROLL_LOG_LEVEL;
  const wanted = (given ?? 'info').trim().toLowerCase();
  if (isLevel(wanted)) return LEVELS[wanted];
  if (given !== refusedLevel) {
    refusedLevel = given;
    process.stderr.write(`PAYROLL_LOG_LEVEL=${printableText(given ?? '')} names no log level (debug, info, warn, error or silent): logging at info\n`);
  }
  return LEVELS.info;
}

/** A log line about to be written, as it was given. */
export type LogEntry = { level: Exclude<Level, 'silent'>; message: string };

let beforeLine: ((entry: LogEntry) => void) | undefined;

/**
 * Called before every log line goes to stderr, with what it says: a terminal progress bar clears its line there, so a
 * log line never lands in the middle of the bar, and `watch` does not say again what the log has just said.
 * `undefined` removes the hook.
 */
export function setBeforeLogLine(hook: ((entry: LogEntry) => void) | undefined): void {
  beforeLine = hook;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/g;

/**
 * A message as one entry of the log: its later lines (a stack trace; a path with a line break in it, inside a file-system
 * error's words) are indented, so no text in a message can pass for an entry of its own (a forged timestamp at the start
 * of a line), and other control characters and the marks that reorder or hide text are escaped as in printable names.
 */
export function logEntryText(message: string): string {
  return message.split(LINE_BREAK).map(printableText).join('\n    ');
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in the machine's own time zone: the clerk reads the logs on local time. */
export function localTimestamp(at = new Date()): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
}

const toStderr = (line: string, entry: LogEntry): void => {
  beforeLine?.(entry);
  process.stderr.write(line);
};

export function createLogger(prefix: string, write: (line: string, entry: LogEntry) => void = toStderr): Logger {
  const at = threshold();
  const log = (level: Exclude<Level, 'silent'>) => (message: string) => {
    if (LEVELS[level] >= at) write(`${localTimestamp()} ${level.toUpperCase()} [${prefix}] ${logEntryText(message)}\n`, { level, message });
  };
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (sub) => createLogger(`${prefix}:${sub}`, write),
  };
}
