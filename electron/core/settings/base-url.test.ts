import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, settingsSchema } from '../../../shared/settings.schema';
import { requireBaseUrl } from './base-url';
import { MissingBaseUrlError, SettingsValidationError } from './settings-errors';

describe('requireBaseUrl', () => {
  it('gives the local default', () => {
    expect(requireBaseUrl(DEFAULT_SETTINGS, 'local')).toBe('http://127.0.0.1:8787');
  });

  it('tells how to fix a missing sandbox or production address', () => {
    expect(() => requireBaseUrl(DEFAULT_SETTINGS, 'sandbox')).toThrow(MissingBaseUrlError);
    expect(() => requireBaseUrl(DEFAULT_SETTINGS, 'production', undefined, '/home/clerk/settings.json')).toThrow(
      'set profiles.production.baseUrl in the settings file /home/clerk/settings.json or pass --base-url',
    );
  });

  it('uses the profile setting, and an override before it', () => {
    const settings = settingsSchema.parse({ profiles: { sandbox: { baseUrl: 'https://s.example.com' } } });
    expect(requireBaseUrl(settings, 'sandbox')).toBe('https://s.example.com');
    expect(requireBaseUrl(settings, 'sandbox', 'https://other.example.com/api')).toBe('https://other.example.com/api');
  });

  it('holds an override to the same https rule', () => {
    expect(() => requireBaseUrl(DEFAULT_SETTINGS, 'production', 'http://payroll.example.com')).toThrow(SettingsValidationError);
    expect(() => requireBaseUrl(DEFAULT_SETTINGS, 'production', 'http://payroll.example.com')).toThrow(/--base-url: https is required/);
    expect(requireBaseUrl(DEFAULT_SETTINGS, 'production', 'http://localhost:9000')).toBe('http://localhost:9000');
  });
});
