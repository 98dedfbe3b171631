// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../shared/bridge';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/settings.schema';
import { createMemoryBridge } from '../../test-kit/memory-bridge';
import { renderScreen } from '../../test-kit/render-screen';
import { SettingsScreen } from './settings-screen';

/** Settings where sandbox and production have an address, so a switch to them really sends files there. */
const withAddresses = (): Settings => ({
  ...structuredClone(DEFAULT_SETTINGS),
  profiles: {
    local: { baseUrl: 'http://127.0.0.1:8787' },
    sandbox: { baseUrl: 'https://sandbox.payroll.example' },
    production: { baseUrl: 'https://payroll.example' },
  },
});
const switches = (bridge: ReturnType<typeof createMemoryBridge>) => bridge.calls.filter((c) => c.method === 'profile.switch');
const radio = (name: RegExp) => screen.findByRole<HTMLInputElement>('radio', { name });
const outcome = () => screen.getByRole('status', { name: 'Outcome of the switch' });
const PRODUCTION_DIALOG = 'Send real payroll files to Production?';

describe('Settings: switching the active environment', () => {
  it('switches only when the clerk presses Switch, and says where files now go', async () => {
    const bridge = createMemoryBridge({ settings: withAddresses() });
    renderScreen(<SettingsScreen />, bridge);
    const local = await radio(/^Local test server/);
    expect(local.checked).toBe(true);
    expect(screen.getByRole('radio', { name: 'Local test server Active now' })).toBe(local);
    await userEvent.click(screen.getByRole('radio', { name: /^Sandbox/ }));
    // Chosen, not switched.
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^Sandbox/ }).checked).toBe(true);
    expect(switches(bridge)).toEqual([]);
    expect(bridge.state.settings.activeProfile).toBe('local');
    expect(screen.getByText('Until then, files are still sent to Local test server.')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Switch to Sandbox' }));
    expect(await screen.findByText('Files are now sent to Sandbox.')).toBeTruthy();
    expect(bridge.state.settings.activeProfile).toBe('sandbox');
    expect(outcome().textContent).toBe('Files are now sent to Sandbox.');
    expect(screen.getByRole('tab', { name: 'Sandbox' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('button', { name: /^Switch to/ })).toBeNull();
    expect(screen.getByRole('radio', { name: 'Sandbox Active now' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Local test server' })).toBeTruthy();
    // The button pressed is gone; the focus is on the environment now active, not lost on the page.
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: /^Sandbox/ }));
  });

  it('moving through the environments with the arrow keys switches nothing', async () => {
    const bridge = createMemoryBridge({ settings: withAddresses() });
    renderScreen(<SettingsScreen />, bridge);
    const local = await radio(/^Local test server/);
    local.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^Sandbox/ }).checked).toBe(true);
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^Production/ }).checked).toBe(true);
    // Give a switch (had one been asked for) time to answer.
    await new Promise((done) => setTimeout(done, 20));
    expect(switches(bridge)).toEqual([]);
    expect(bridge.state.settings.activeProfile).toBe('local');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Switch to Production' })).toBeTruthy();
  });

  it('asks before switching to Production, in words, and Cancel leaves everything as it was', async () => {
    const bridge = createMemoryBridge({ settings: withAddresses() });
    renderScreen(<SettingsScreen />, bridge);
    await userEvent.click(await radio(/^Production/));
    const button = screen.getByRole('button', { name: 'Switch to Production' });
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: PRODUCTION_DIALOG });
    expect(within(dialog).getByText(/Production is the real service/)).toBeTruthy();
    expect(within(dialog).getByText(/payroll files found in the watched folder.*go to Production/)).toBeTruthy();
    // Whatever environment they were queued for (not necessarily the active one), waiting files stay with it.
    expect(within(dialog).getByText('Files already waiting in the Queue are not sent to Production: each waits for the environment it was queued for, until you switch back to that one.')).toBeTruthy();
    // The safe choice has the focus, so Enter or Space on a dialog that just opened does not switch.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' })));
    expect(switches(bridge)).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(switches(bridge)).toEqual([]);
    expect(bridge.state.settings.activeProfile).toBe('local');
    await waitFor(() => expect(document.activeElement).toBe(button));

    // Escape too closes without switching.
    await userEvent.click(button);
    await screen.findByRole('dialog', { name: PRODUCTION_DIALOG });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(switches(bridge)).toEqual([]);

    await userEvent.click(button);
    const again = await screen.findByRole('dialog', { name: PRODUCTION_DIALOG });
    await userEvent.click(within(again).getByRole('button', { name: 'Yes, send files to Production' }));
    expect(await screen.findByText('Files are now sent to Production.')).toBeTruthy();
    expect(bridge.state.settings.activeProfile).toBe('production');
    expect(switches(bridge)).toEqual([{ method: 'profile.switch', request: { profile: 'production' } }]);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('radio', { name: /^Production/ })));
  });

  it('switches away from Production, and between test services, without a dialog', async () => {
    const bridge = createMemoryBridge({ settings: { ...withAddresses(), activeProfile: 'production' } });
    renderScreen(<SettingsScreen />, bridge);
    await userEvent.click(await radio(/^Sandbox/));
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Sandbox' }));
    expect(await screen.findByText('Files are now sent to Sandbox.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not say files are sent to an environment that has no address yet', async () => {
    const bridge = createMemoryBridge();
    expect(bridge.state.settings.profiles.sandbox.baseUrl).toBeUndefined();
    renderScreen(<SettingsScreen />, bridge);
    await userEvent.click(await radio(/^Sandbox/));
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Sandbox' }));
    expect(await screen.findByText(/Sandbox is now the active environment, but it has no Base URL yet, so nothing is sent/)).toBeTruthy();
    expect(screen.queryByText('Files are now sent to Sandbox.')).toBeNull();
    expect(bridge.state.settings.activeProfile).toBe('sandbox');
  });

  it('shows the outcome of the latest switch only: never a success beside an error', async () => {
    const bridge = createMemoryBridge({ settings: withAddresses() });
    let refuse = true;
    bridge.override('profile.switch', ({ profile }) => {
      if (refuse) throw new BridgeError({ name: 'BridgeError', code: 'internal', message: 'the settings file cannot be written: disk full' });
      bridge.state.settings = { ...bridge.state.settings, activeProfile: profile };
      return { settings: bridge.state.settings, file: '/home/clerk/.config/payroll-uploader/settings.json' };
    });
    renderScreen(<SettingsScreen />, bridge);
    await userEvent.click(await radio(/^Sandbox/));
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Sandbox' }));
    const failed = await screen.findByRole('alert');
    expect(failed.textContent).toContain('The switch to Sandbox did not happen');
    expect(failed.textContent).toContain('disk full');
    expect(outcome().textContent).toBe('');
    // Still chosen, so the clerk can try again.
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^Sandbox/ }).checked).toBe(true);

    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Sandbox' }));
    expect(await screen.findByText('Files are now sent to Sandbox.')).toBeTruthy();
    expect(screen.queryByText(/did not happen/)).toBeNull();
    expect(screen.queryByText(/disk full/)).toBeNull();

    refuse = true;
    await userEvent.click(screen.getByRole('radio', { name: /^Local test server/ }));
    // A new choice takes the last outcome away: it was about another switch.
    expect(outcome().textContent).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Local test server' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The switch to Local test server did not happen');
    expect(screen.queryByText('Files are now sent to Sandbox.')).toBeNull();
    expect(screen.queryByText(/Files are now sent to/)).toBeNull();
    expect(bridge.state.settings.activeProfile).toBe('sandbox');
  });
});
