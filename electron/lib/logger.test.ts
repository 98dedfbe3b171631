import { describe, expect, it } from 'vitest';
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
});
