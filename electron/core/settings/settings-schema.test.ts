import { describe, expect, it } from 'vitest';
import { baseUrlSchema, DEFAULT_SETTINGS, isAbsolutePath, settingsSchema } from '../../../shared/settings.schema';

describe('baseUrlSchema', () => {
  it.each(['http://127.0.0.1:8787', 'http://127.1.2.3/', 'http://127.1', 'http://LOCALHOST:80', 'http://[::1]:8080', 'http://[0:0::1]', 'http://[::ffff:127.0.0.1]:8787'])(
    'accepts plain http to %s',
    (url) => expect(baseUrlSchema.safeParse(url).success).toBe(true),
  );
  it.each(['http://128.0.0.1', 'http://127.0.0.1.example.com', 'http://localhost.example.com', 'http://[::2]', 'http://10.0.0.1', 'http://[::ffff:10.0.0.1]', 'not a url'])(
    'refuses %s',
    (url) => expect(baseUrlSchema.safeParse(url).success).toBe(false),
  );
});

describe('settingsSchema', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      profiles: { local: { baseUrl: 'http://127.0.0.1:8787' }, sandbox: {}, production: {} },
      activeProfile: 'local',
      fileTypeRules: [
        { contains: 'census', fileType: '1' },
        { contains: 'receipt', fileType: '2' },
      ],
      stabilityMs: 2000,
      sweepIntervalMs: 60_000,
      usePolling: false,
      pollIntervalMs: 1000,
      archive: {},
      preflight: 'warn',
      concurrency: 2,
    });
    expect(Object.isFrozen(DEFAULT_SETTINGS.profiles.local)).toBe(true);
  });

  it('allows plain http only to loopback hosts, and https anywhere', () => {
    const parse = (baseUrl: string) => settingsSchema.safeParse({ profiles: { production: { baseUrl } } });
    expect(parse('https://payroll.example.com').success).toBe(true);
    expect(parse('http://[::1]:8787').success).toBe(true);
    expect(parse('http://payroll.example.com').error?.issues[0]?.message).toMatch(/https is required/);
    expect(parse('ftp://payroll.example.com').success).toBe(false);
    expect(parse('https://user:pw@payroll.example.com').success).toBe(false);
  });

  it('keeps values in range', () => {
    expect(settingsSchema.safeParse({ stabilityMs: 99 }).success).toBe(false);
    expect(settingsSchema.safeParse({ stabilityMs: 600_001 }).success).toBe(false);
    expect(settingsSchema.safeParse({ concurrency: 0 }).success).toBe(false);
    expect(settingsSchema.safeParse({ concurrency: 8 }).success).toBe(true);
    expect(settingsSchema.safeParse({ concurrency: 2.5 }).success).toBe(false);
    expect(settingsSchema.safeParse({ preflight: 'strict' }).success).toBe(false);
    expect(settingsSchema.safeParse({ fileTypeRules: [{ contains: '', fileType: '1' }] }).success).toBe(false);
    expect(settingsSchema.safeParse({ fileTypeRules: [{ contains: 'x', fileType: '3' }] }).success).toBe(false);
    expect(settingsSchema.safeParse({ proxy: 'http://proxy.corp.example:3128' }).success).toBe(true);
    expect(settingsSchema.safeParse({ watchedFolder: 'relative/folder' }).success).toBe(false);
  });

  it('tells absolute paths of every platform', () => {
    expect(['/srv/in', 'C:\\exports', 'd:/exports', '\\\\server\\share'].every(isAbsolutePath)).toBe(true);
    expect(['exports', './in', 'C:exports'].some(isAbsolutePath)).toBe(false);
  });
});
