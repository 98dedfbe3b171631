import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsValidationError } from './settings-errors';
import { overlaySettings } from './settings-overlay';
import { createSettingsStore } from './settings-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'settings-overlay-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('overlaySettings', () => {
  it("lays one run's profile, base URL and folder over the saved settings without saving them", async () => {
    const saved = createSettingsStore({ cwd: dir });
    saved.update({ activeProfile: 'production', profiles: { sandbox: { baseUrl: 'https://sandbox.example.com' } } });
    const run = overlaySettings(saved, { profile: 'sandbox', baseUrl: 'https://other.example.com', watchedFolder: '/exports' });
    expect(run.get()).toMatchObject({ activeProfile: 'sandbox', watchedFolder: '/exports', profiles: { sandbox: { baseUrl: 'https://other.example.com' } } });
    // An update is saved underneath and the overlay stays on top of it.
    const after = run.update({ stabilityMs: 3000, profiles: { local: { clientId: 'app' } } });
    expect(after).toMatchObject({ activeProfile: 'sandbox', stabilityMs: 3000, profiles: { sandbox: { baseUrl: 'https://other.example.com' }, local: { clientId: 'app' } } });
    const file = JSON.parse(await readFile(path.join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(file).toMatchObject({ activeProfile: 'production', stabilityMs: 3000, profiles: { sandbox: { baseUrl: 'https://sandbox.example.com' } } });
    expect(file.watchedFolder).toBeUndefined();
  });

  it('refuses a base URL the settings would refuse, at once, naming --base-url', () => {
    const saved = createSettingsStore({ cwd: dir });
    expect(() => overlaySettings(saved, { profile: 'sandbox', baseUrl: 'http://payroll.example.com' })).toThrow(SettingsValidationError);
    expect(() => overlaySettings(saved, { profile: 'sandbox', baseUrl: 'http://payroll.example.com' })).toThrow(/--base-url/);
  });
});
