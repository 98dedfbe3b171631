// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../shared/bridge';
import { createMemoryBridge } from '../../test-kit/memory-bridge';
import { renderScreen } from '../../test-kit/render-screen';
import { SettingsScreen } from './settings-screen';

const form = (name: string) => screen.findByRole('form', { name });

describe('SettingsScreen', () => {
  it('switches the active environment', async () => {
    const bridge = createMemoryBridge();
    renderScreen(<SettingsScreen />, bridge);
    const local = await screen.findByRole<HTMLInputElement>('radio', { name: /^Local test server/ });
    expect(local.checked).toBe(true);
    await userEvent.click(screen.getByRole('radio', { name: /^Sandbox/ }));
    expect(await screen.findByText('Files are now sent to Sandbox.')).toBeTruthy();
    expect(bridge.state.settings.activeProfile).toBe('sandbox');
    expect(screen.getByRole('tab', { name: 'Sandbox' }).getAttribute('aria-selected')).toBe('true');
  });

  it('never shows a stored secret back, and says one is stored', async () => {
    const bridge = createMemoryBridge({ credentials: { local: { clientId: 'clerk-app', secret: 'right-secret' }, sandbox: undefined, production: undefined } });
    renderScreen(<SettingsScreen />, bridge);
    const profile = await form('Local test server');
    const secret = within(profile).getByLabelText<HTMLInputElement>('Client secret');
    expect(secret.value).toBe('');
    expect(await within(profile).findByText(/A secret is stored in the system keychain/)).toBeTruthy();
    await waitFor(() => expect(within(profile).getByLabelText<HTMLInputElement>('Client ID').value).toBe('clerk-app'));
    expect(document.body.innerHTML).not.toContain('right-secret');
  });

  it('saves credentials to the keychain and tests the connection', async () => {
    const bridge = createMemoryBridge();
    renderScreen(<SettingsScreen />, bridge);
    const profile = await form('Local test server');
    expect(within(profile).getByText('No secret stored yet.')).toBeTruthy();
    await userEvent.type(within(profile).getByLabelText('Client ID'), 'clerk-app');
    await userEvent.type(within(profile).getByLabelText('Client secret'), 'right-secret');
    await userEvent.click(within(profile).getByRole('button', { name: 'Save' }));
    expect(await within(profile).findByText('Saved.')).toBeTruthy();
    expect(bridge.state.credentials.local).toEqual({ clientId: 'clerk-app', secret: 'right-secret' });
    expect(within(profile).getByLabelText<HTMLInputElement>('Client secret').value).toBe('');
    await userEvent.click(within(profile).getByRole('button', { name: 'Test connection' }));
    expect(await within(profile).findByText(/Connected in 12 ms/)).toBeTruthy();
  });

  it('says why a connection test failed', async () => {
    const bridge = createMemoryBridge({ credentials: { local: { clientId: 'clerk-app', secret: 'wrong' }, sandbox: undefined, production: undefined } });
    renderScreen(<SettingsScreen />, bridge);
    const profile = await form('Local test server');
    await userEvent.click(within(profile).getByRole('button', { name: 'Test connection' }));
    expect(await within(profile).findByRole('alert')).toBeTruthy();
    expect(within(profile).getByText(/refused the client id or secret/)).toBeTruthy();
  });

  it('asks for the secret when only the client ID changes', async () => {
    const bridge = createMemoryBridge({ credentials: { local: { clientId: 'clerk-app', secret: 'right-secret' }, sandbox: undefined, production: undefined } });
    renderScreen(<SettingsScreen />, bridge);
    const profile = await form('Local test server');
    const clientId = within(profile).getByLabelText<HTMLInputElement>('Client ID');
    await waitFor(() => expect(clientId.value).toBe('clerk-app'));
    await userEvent.type(clientId, '-2');
    await userEvent.click(within(profile).getByRole('button', { name: 'Save' }));
    expect(await within(profile).findByText('Type the client secret that goes with this client ID.')).toBeTruthy();
    expect(bridge.state.credentials.local?.clientId).toBe('clerk-app');
  });

  it('shows the settings schema\'s error next to a bad base URL', async () => {
    const bridge = createMemoryBridge();
    renderScreen(<SettingsScreen />, bridge);
    await userEvent.click(await screen.findByRole('tab', { name: 'Production' }));
    const profile = await form('Production');
    await userEvent.type(within(profile).getByLabelText('Base URL'), 'http://payroll.example.com');
    await userEvent.click(within(profile).getByRole('button', { name: 'Save' }));
    const field = within(profile).getByLabelText('Base URL');
    expect(await within(profile).findByText(/https is required/)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(bridge.state.settings.profiles.production.baseUrl).toBeUndefined();
  });

  it('sets the watched folder by typed path, with no Browse button in the browser', async () => {
    const bridge = createMemoryBridge();
    renderScreen(<SettingsScreen />, bridge);
    const folder = await form('Watched folder');
    expect(within(folder).queryByRole('button', { name: 'Browse…' })).toBeNull();
    await userEvent.type(within(folder).getByLabelText('Watched folder'), 'exports');
    await userEvent.click(within(folder).getByRole('button', { name: 'Save folder' }));
    expect(await within(folder).findByText('must be an absolute path')).toBeTruthy();
    await userEvent.clear(within(folder).getByLabelText('Watched folder'));
    await userEvent.type(within(folder).getByLabelText('Watched folder'), '/srv/payroll/exports');
    await userEvent.click(within(folder).getByRole('button', { name: 'Save folder' }));
    expect(await within(folder).findByText('Now watching /srv/payroll/exports.')).toBeTruthy();
    expect(bridge.state.settings.watchedFolder).toBe('/srv/payroll/exports');
  });

  it('offers Browse in the desktop app', async () => {
    renderScreen(<SettingsScreen />, createMemoryBridge({ platform: 'desktop' }));
    const folder = await form('Watched folder');
    await userEvent.click(within(folder).getByRole('button', { name: 'Browse…' }));
    await waitFor(() => expect(within(folder).getByLabelText<HTMLInputElement>('Watched folder').value).toBe('/home/clerk/payroll-exports'));
  });

  it('turns start at login on and off in the desktop app, and says so', async () => {
    const bridge = createMemoryBridge({ platform: 'desktop' });
    renderScreen(<SettingsScreen />, bridge);
    const toggle = await screen.findByRole<HTMLInputElement>('switch', { name: /Open Payroll Uploader when I log in/ });
    expect(toggle.checked).toBe(false);
    await userEvent.click(toggle);
    expect(await screen.findByText('Payroll Uploader will open when you log in.')).toBeTruthy();
    expect(bridge.state.settings.startAtLogin).toBe(true);
    await waitFor(() => expect(toggle.checked).toBe(true));
    await userEvent.click(toggle);
    expect(await screen.findByText('Payroll Uploader will not open when you log in.')).toBeTruthy();
    expect(bridge.state.settings.startAtLogin).toBe(false);
  });

  it('says why start at login was not saved, and leaves the switch as it was', async () => {
    const bridge = createMemoryBridge({ platform: 'desktop' });
    bridge.override('settings.patch', () => {
      throw new BridgeError({ name: 'BridgeError', code: 'internal', message: 'the settings file cannot be written: read-only file system' });
    });
    renderScreen(<SettingsScreen />, bridge);
    const toggle = await screen.findByRole<HTMLInputElement>('switch', { name: /Open Payroll Uploader when I log in/ });
    await userEvent.click(toggle);
    expect(await screen.findByText(/read-only file system/)).toBeTruthy();
    expect(toggle.checked).toBe(false);
  });

  it('offers no start at login in the browser, where nothing can start at login', async () => {
    renderScreen(<SettingsScreen />, createMemoryBridge());
    await form('Files');
    expect(screen.queryByRole('switch', { name: /when I log in/ })).toBeNull();
  });

  it('checks and saves how files are handled', async () => {
    const bridge = createMemoryBridge();
    renderScreen(<SettingsScreen />, bridge);
    const files = await form('Files');
    const stability = within(files).getByLabelText(/Stability time/);
    await userEvent.clear(stability);
    await userEvent.type(stability, '0');
    await userEvent.type(within(files).getByLabelText('Proxy'), 'not a url');
    await userEvent.click(within(files).getByRole('button', { name: 'Save' }));
    expect(await within(files).findByText('must be between 0.1 and 600 seconds')).toBeTruthy();
    expect(within(files).getByText('must be an http(s) URL')).toBeTruthy();

    await userEvent.clear(stability);
    await userEvent.type(stability, '5');
    await userEvent.clear(within(files).getByLabelText('Proxy'));
    await userEvent.click(within(files).getByRole('radio', { name: /^Block/ }));
    await userEvent.click(within(files).getByRole('switch', { name: /polling/ }));
    await userEvent.click(within(files).getByRole('button', { name: 'Add rule' }));
    const rule = within(files).getByRole('group', { name: 'Rule 3' });
    await userEvent.type(within(rule).getByLabelText('Name contains'), 'rcpt');
    await userEvent.selectOptions(within(rule).getByLabelText('File type'), 'Receipt');
    await userEvent.click(within(files).getByRole('button', { name: 'Save' }));
    expect(await within(files).findByText('Saved.')).toBeTruthy();
    expect(bridge.state.settings).toMatchObject({
      stabilityMs: 5000, preflight: 'block', usePolling: true,
      fileTypeRules: [{ contains: 'census', fileType: '1' }, { contains: 'receipt', fileType: '2' }, { contains: 'rcpt', fileType: '2' }],
    });
  });

  it('puts the core\'s field errors next to the field they name', async () => {
    const bridge = createMemoryBridge();
    bridge.override('settings.patch', () => {
      throw new BridgeError({ name: 'BridgeError', code: 'invalid_argument', message: 'settings are not valid',
        fields: [{ path: 'archive.dir', message: 'cannot be created: permission denied' }] });
    });
    renderScreen(<SettingsScreen />, bridge);
    const files = await form('Files');
    await userEvent.type(within(files).getByLabelText('Archive folder'), '/root/archive');
    await userEvent.click(within(files).getByRole('button', { name: 'Save' }));
    expect(await within(files).findByText('cannot be created: permission denied')).toBeTruthy();
    expect(within(files).getByLabelText('Archive folder').getAttribute('aria-invalid')).toBe('true');
  });
});
