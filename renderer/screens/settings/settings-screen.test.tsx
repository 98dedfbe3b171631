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
    // The radios only choose (environment-section.test.tsx has the rest of the flow); the button switches.
    expect(bridge.state.settings.activeProfile).toBe('local');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Sandbox' }));
    expect(await screen.findByText(/^Sandbox is now the active environment/)).toBeTruthy();
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

  it('reaches the secret\'s Show secret button by Tab, and shows and hides the typed secret with it', async () => {
    renderScreen(<SettingsScreen />, createMemoryBridge());
    const profile = await form('Local test server');
    const user = userEvent.setup();
    const secret = within(profile).getByLabelText<HTMLInputElement>('Client secret');
    await user.type(secret, 'typed-secret');
    expect(secret.type).toBe('password');
    await user.tab();
    const toggle = within(profile).getByRole('button', { name: 'Show secret' });
    expect(document.activeElement).toBe(toggle);
    await user.keyboard('{Enter}');
    expect(secret.type).toBe('text');
    expect(document.activeElement).toBe(within(profile).getByRole('button', { name: 'Hide secret' }));
    await user.keyboard(' ');
    expect(secret.type).toBe('password');
    expect(within(profile).getByRole('button', { name: 'Show secret' })).toBe(toggle);
    // Shift+Tab goes back to the field, with what was typed still there.
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(secret);
    expect(secret.value).toBe('typed-secret');
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

  it('does not test with unsaved changes, and says to save them first', async () => {
    const bridge = createMemoryBridge({ credentials: { local: { clientId: 'clerk-app', secret: 'right-secret' }, sandbox: undefined, production: undefined } });
    renderScreen(<SettingsScreen />, bridge);
    const profile = await form('Local test server');
    await waitFor(() => expect(within(profile).getByLabelText<HTMLInputElement>('Client ID').value).toBe('clerk-app'));
    const tests = () => bridge.calls.filter((c) => c.method === 'credentials.test').length;
    // A wrong secret typed but not saved: a test of the saved (good) one would say "Connected", which is not true of it.
    await userEvent.type(within(profile).getByLabelText('Client secret'), 'wrong-secret');
    await userEvent.click(within(profile).getByRole('button', { name: 'Test connection' }));
    const notice = await within(profile).findByRole('alert');
    expect(notice.textContent).toBe('Save your changes first: the connection test uses the saved settings, not what is typed here, so it was not run.');
    await new Promise((done) => setTimeout(done, 20));
    expect(tests()).toBe(0);
    expect(within(profile).queryByText(/Connected in/)).toBeNull();

    // Undoing the change takes the notice away and the test runs again.
    await userEvent.clear(within(profile).getByLabelText('Client secret'));
    expect(within(profile).queryByText(/Save your changes first/)).toBeNull();
    await userEvent.click(within(profile).getByRole('button', { name: 'Test connection' }));
    expect(await within(profile).findByText(/Connected in 12 ms/)).toBeTruthy();
    expect(tests()).toBe(1);

    // A changed address, saved, is what the next test uses.
    await userEvent.clear(within(profile).getByLabelText('Base URL'));
    await userEvent.type(within(profile).getByLabelText('Base URL'), 'http://127.0.0.1:9000');
    await userEvent.click(within(profile).getByRole('button', { name: 'Test connection' }));
    expect(await within(profile).findByText(/Save your changes first/)).toBeTruthy();
    expect(within(profile).queryByText(/Connected in/)).toBeNull();
    expect(tests()).toBe(1);
    await userEvent.click(within(profile).getByRole('button', { name: 'Save' }));
    expect(await within(profile).findByText('Saved.')).toBeTruthy();
    expect(within(profile).queryByText(/Save your changes first/)).toBeNull();
    expect(bridge.state.settings.profiles.local.baseUrl).toBe('http://127.0.0.1:9000');
    await userEvent.click(within(profile).getByRole('button', { name: 'Test connection' }));
    expect(await within(profile).findByText(/Connected in 12 ms/)).toBeTruthy();
    expect(tests()).toBe(2);
  });

  it('asks before removing credentials from the keychain, naming the environment', async () => {
    const bridge = createMemoryBridge({ credentials: { local: undefined, sandbox: { clientId: 'sandbox-app', secret: 'right-secret' }, production: undefined } });
    renderScreen(<SettingsScreen />, bridge);
    await userEvent.click(await screen.findByRole('tab', { name: 'Sandbox' }));
    const profile = await form('Sandbox');
    const remove = await within(profile).findByRole('button', { name: 'Remove credentials' });
    await userEvent.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Remove the credentials of Sandbox?' });
    expect(within(dialog).getByText(/The client ID and secret of Sandbox are deleted from this computer's keychain/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep them' })));
    expect(bridge.state.credentials.sandbox).toBeDefined();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep them' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bridge.calls.some((c) => c.method === 'credentials.delete')).toBe(false);
    expect(bridge.state.credentials.sandbox).toEqual({ clientId: 'sandbox-app', secret: 'right-secret' });
    await waitFor(() => expect(document.activeElement).toBe(remove));

    await userEvent.click(remove);
    const again = await screen.findByRole('dialog', { name: 'Remove the credentials of Sandbox?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Yes, remove them' }));
    expect(await within(profile).findByText('The credentials were removed from the keychain.')).toBeTruthy();
    expect(bridge.state.credentials.sandbox).toBeUndefined();
    expect(within(profile).queryByRole('button', { name: 'Remove credentials' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(within(profile).getByLabelText('Client ID')));
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

  it('refuses a negative or out-of-range time next to the field, and keeps it as typed', async () => {
    const bridge = createMemoryBridge();
    renderScreen(<SettingsScreen />, bridge);
    const files = await form('Files');
    const stability = within(files).getByLabelText<HTMLInputElement>(/Stability time/);
    const patches = () => bridge.calls.filter((c) => c.method === 'settings.patch').length;
    for (const typed of ['-5', '900', '0.05', '1.0005']) {
      await userEvent.clear(stability);
      await userEvent.type(stability, typed);
      await userEvent.click(within(files).getByRole('button', { name: 'Save' }));
      const message = typed === '1.0005'
        ? 'can have at most 3 digits after the decimal point (thousandths of a second)'
        : 'must be between 0.1 and 600 seconds';
      expect(await within(files).findByText(message), typed).toBeTruthy();
      expect(stability.getAttribute('aria-invalid'), typed).toBe('true');
      expect(stability.value, typed).toBe(typed);
      // Still as typed once the field is left: nothing rounds, clamps or drops the minus sign.
      await userEvent.tab();
      expect(stability.value, typed).toBe(typed);
      expect(patches(), typed).toBe(0);
      expect(bridge.state.settings.stabilityMs, typed).toBe(2000);
    }

    await userEvent.click(within(files).getByRole('switch', { name: /polling/ }));
    const interval = within(files).getByLabelText<HTMLInputElement>(/Polling interval/);
    await userEvent.clear(interval);
    await userEvent.type(interval, '-1');
    await userEvent.clear(stability);
    await userEvent.type(stability, '2.5');
    await userEvent.click(within(files).getByRole('button', { name: 'Save' }));
    expect(await within(files).findByText('must be between 0.1 and 600 seconds')).toBeTruthy();
    expect(interval.getAttribute('aria-invalid')).toBe('true');
    expect(stability.getAttribute('aria-invalid')).not.toBe('true');
    expect(patches()).toBe(0);

    await userEvent.clear(interval);
    await userEvent.type(interval, '10');
    await userEvent.click(within(files).getByRole('button', { name: 'Save' }));
    expect(await within(files).findByText('Saved.')).toBeTruthy();
    expect(bridge.state.settings).toMatchObject({ stabilityMs: 2500, pollIntervalMs: 10_000, usePolling: true });
    expect(stability.value).toBe('2.5');
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
