import { homedir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { appDataDir } from './app-data';

it('puts the data folder under XDG_DATA_HOME only when it is an absolute path, never in the current folder', () => {
  const fallback = join(homedir(), '.local', 'share', 'payroll-uploader');
  expect(appDataDir({ XDG_DATA_HOME: '/srv/data' }, 'linux')).toBe('/srv/data/payroll-uploader');
  expect(appDataDir({ XDG_DATA_HOME: '' }, 'linux')).toBe(fallback);
  expect(appDataDir({ XDG_DATA_HOME: 'relative/dir' }, 'linux')).toBe(fallback);
  expect(appDataDir({}, 'linux')).toBe(fallback);
  expect(appDataDir({ PAYROLL_DATA_DIR: '/tmp/payroll', XDG_DATA_HOME: '' }, 'linux')).toBe('/tmp/payroll');
});
