import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, logEntryText } from './logger';

describe('the logger', () => {
  it('writes every message as one entry: later lines indented, so none passes for an entry of its own', () => {
    const lines: string[] = [];
    const logger = createLogger('test', (line) => lines.push(line));
    logger.warn('moving failed: ENOTDIR, lstat \'/w/x\n2026-01-01 09:00:00.000 INFO [watch:queue] forged.csv: uploaded\'');
    const text = lines.join('');
    const entries = text.split('\n').filter(Boolean);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} WARN \[test\] moving failed/);
    expect(entries[1]).toBe("    2026-01-01 09:00:00.000 INFO [watch:queue] forged.csv: uploaded'");
  });

  it('escapes carriage returns, other control characters and the marks that reorder text; keeps backslashes', () => {
    expect(logEntryText('a\rb')).toBe('a\n    b');
    expect(logEntryText('a\r\nb\u2028c')).toBe('a\n    b\n    c');
    expect(logEntryText('x\u202etxt.csv \u0007 C:\\exports\\a.csv')).toBe('x\\u202etxt.csv \\u0007 C:\\exports\\a.csv');
    expect(logEntryText('plain')).toBe('plain');
  });

  describe('PAYROLL_LOG_LEVEL', () => {
    const saved = process.env.PAYROLL_LOG_LEVEL;
    afterEach(() => {
      if (saved === undefined) delete process.env.PAYROLL_LOG_LEVEL;
      else process.env.PAYROLL_LOG_LEVEL = saved;
      vi.restoreAllMocks();
    });
    const logged = (level: string) => {
      process.env.PAYROLL_LOG_LEVEL = level;
      const said: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { said.push(String(chunk)); return true; });
      const lines: string[] = [];
      const logger = createLogger('test', (line) => lines.push(line));
      logger.debug('a debug line');
      logger.info('an info line');
      logger.warn('a warning');
      return { lines: lines.map((l) => l.replace(/^\S+ \S+ /, '')), said };
    };

    it('is read in any case', () => {
      expect(logged('DEBUG').lines).toEqual(['DEBUG [test] a debug line\n', 'INFO [test] an info line\n', 'WARN [test] a warning\n']);
      expect(logged(' Warn ').lines).toEqual(['WARN [test] a warning\n']);
    });

    it.each(['verbose', 'toString', 'constructor'])('%s names no level: said once on stderr, and info is used', (level) => {
      const { lines, said } = logged(level);
      expect(lines).toEqual(['INFO [test] an info line\n', 'WARN [test] a warning\n']);
      expect(said).toEqual([`PAYROLL_LOG_LEVEL=${level} names no log level (debug, info, warn, error or silent): logging at info\n`]);
      // A second logger of the same run does not say it again.
      createLogger('other', () => undefined);
      expect(said).toHaveLength(1);
    });
  });
});
