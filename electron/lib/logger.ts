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

export function createLogger(prefix: string, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const at = threshold();
  const log = (level: Exclude<Level, 'silent'>) => (message: string) => {
    if (LEVELS[level] >= at) write(`${new Date().toISOString()} ${level.toUpperCase()} [${prefix}] ${message}\n`);
  };
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (sub) => createLogger(`${prefix}:${sub}`, write),
  };
}
