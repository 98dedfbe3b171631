// @vitest-environment happy-dom
import './test-kit/setup-dom';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { App } from './app';
import { createQueryClient } from './data/query-client';
import { configuredMemoryBridge, createMemoryBridge, type MemoryBridge } from './test-kit/memory-bridge';

const renderApp = (bridge: MemoryBridge) => render(<App bridge={bridge} queryClient={createQueryClient()} />);
const configured = configuredMemoryBridge;

describe('App', () => {
  beforeEach(() => { window.location.hash = ''; });

  it('walks a new clerk through the set-up to the Queue', async () => {
    const bridge = createMemoryBridge();
    renderApp(bridge);
    expect(await screen.findByRole('heading', { name: 'Welcome to Payroll Uploader' })).toBeTruthy();
    await userEvent.click(screen.getByRole('radio', { name: /^Sandbox/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Connect to Sandbox' })).toBeTruthy();
    expect(bridge.state.settings.activeProfile).toBe('sandbox');
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);

    await userEvent.type(screen.getByLabelText('Base URL'), 'https://sandbox.payroll.example');
    await userEvent.type(screen.getByLabelText('Client ID'), 'clerk-app');
    await userEvent.type(screen.getByLabelText('Client secret'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Save and test connection' }));
    expect(await screen.findByText(/refused the client id or secret/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);

    await userEvent.type(screen.getByLabelText('Client secret'), 'right-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Save and test connection' }));
    expect(await screen.findByText(/Connected in 12 ms/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    await userEvent.type(await screen.findByRole('textbox', { name: 'Watched folder' }), '/srv/payroll/exports');
    // Every state the Queue's folder header shows from the moment it opens.
    const shown: string[] = [];
    const states = ['Watching', 'Not watching'];
    const seen = new MutationObserver(() => {
      const now = [...document.querySelectorAll('main *')].find((node) => node.children.length === 0 && states.includes(node.textContent ?? ''));
      if (now && shown.at(-1) !== now.textContent) shown.push(now.textContent ?? '');
    });
    seen.observe(document.body, { subtree: true, childList: true, characterData: true });
    await userEvent.click(screen.getByRole('button', { name: 'Start watching this folder' }));
    expect(await screen.findByRole('heading', { name: 'Queue', level: 2 })).toBeTruthy();
    // It opens on the folder as the start left it: not "Not watching" first, which it would then announce as news.
    await screen.findByText('Watching');
    seen.disconnect();
    expect(shown).toEqual(['Watching']);
    expect(bridge.state.settings.profiles.sandbox.baseUrl).toBe('https://sandbox.payroll.example');
    expect(bridge.state.folder).toEqual({ folder: '/srv/payroll/exports', state: 'watching' });
  });

  it('opens straight on the Queue once set up, with every screen in the navigation', async () => {
    renderApp(configured());
    expect(await screen.findByRole('heading', { name: 'Queue', level: 2 })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Screens' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(
      ['Queue', 'History', 'Send records', 'Deliveries', 'Settings', 'Local server']);
    expect(within(nav).getByRole('link', { name: 'Queue' }).getAttribute('aria-current')).toBe('page');
    await userEvent.click(within(nav).getByRole('link', { name: 'History' }));
    expect(await screen.findByRole('heading', { name: 'History', level: 2 })).toBeTruthy();
    expect(window.location.hash).toBe('#/history');
    expect(within(nav).getByRole('link', { name: 'History' }).getAttribute('aria-current')).toBe('page');
  });

  it('skips to the content of the open screen, staying on it', async () => {
    renderApp(configured());
    const nav = await screen.findByRole('navigation', { name: 'Screens' });
    await userEvent.click(within(nav).getByRole('link', { name: 'History' }));
    expect(await screen.findByRole('heading', { name: 'History', level: 2 })).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'Skip to content' }));
    expect(window.location.hash).toBe('#/history');
    expect(document.activeElement?.id).toBe('main');
    expect(screen.getByRole('heading', { name: 'History', level: 2 })).toBeTruthy();
  });

  it('asks before the set-up makes Production the active environment', async () => {
    const bridge = createMemoryBridge();
    renderApp(bridge);
    await userEvent.click(await screen.findByRole('radio', { name: /^Production/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send real payroll files to Production?' });
    expect(within(dialog).queryByText(/already waiting in the Queue/)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bridge.state.settings.activeProfile).toBe('local');
    expect(bridge.calls.some((c) => c.method === 'profile.switch')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, send files to Production' }));
    expect(await screen.findByRole('heading', { name: 'Connect to Production' })).toBeTruthy();
    expect(bridge.state.settings.activeProfile).toBe('production');
  });

  it('lets the set-up be put off', async () => {
    renderApp(createMemoryBridge());
    await userEvent.click(await screen.findByRole('button', { name: 'Set up later' }));
    expect(await screen.findByRole('navigation', { name: 'Screens' })).toBeTruthy();
  });

  it('gives the focus to the Queue\'s content when the set-up is put off from the keyboard, not to the page', async () => {
    renderApp(createMemoryBridge());
    const user = userEvent.setup();
    (await screen.findByRole('button', { name: 'Set up later' })).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Queue', level: 2 })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
    expect(screen.getByRole('main').contains(screen.getByRole('heading', { name: 'Queue', level: 2 }))).toBe(true);
  });

  it('gives the focus to the Queue\'s content when the set-up ends with Start watching this folder, not to the page', async () => {
    const bridge = createMemoryBridge();
    renderApp(bridge);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /^Sandbox/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByLabelText('Base URL'), 'https://sandbox.payroll.example');
    await user.type(screen.getByLabelText('Client ID'), 'clerk-app');
    await user.type(screen.getByLabelText('Client secret'), 'right-secret');
    await user.click(screen.getByRole('button', { name: 'Save and test connection' }));
    expect(await screen.findByText(/Connected in 12 ms/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByRole('textbox', { name: 'Watched folder' }), '/srv/payroll/exports');
    screen.getByRole('button', { name: 'Start watching this folder' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Queue', level: 2 })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
    expect(bridge.state.folder).toEqual({ folder: '/srv/payroll/exports', state: 'watching' });
  });

  it('shows the core\'s notices until dismissed', async () => {
    const bridge = configured();
    renderApp(bridge);
    await screen.findByRole('heading', { name: 'Queue', level: 2 });
    bridge.emit('notice', { level: 'warning', message: 'census-bad.csv was refused: 2 rows have problems' });
    const messages = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(messages).findByText('census-bad.csv was refused: 2 rows have problems')).toBeTruthy();
    await userEvent.click(within(messages).getByRole('button', { name: 'Dismiss: census-bad.csv was refused…' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Messages' })).toBeNull());
  });

  it('drops the notice that uploads stopped once the folder is watched again, and dismisses all at once', async () => {
    const bridge = configured();
    renderApp(bridge);
    await screen.findByRole('heading', { name: 'Queue', level: 2 });
    bridge.emit('notice', { level: 'warning', message: 'census-a.csv was refused: 2 rows have problems' });
    bridge.emit('notice', { level: 'error', message: 'Uploads stopped: No service address is set for Sandbox: enter it in Settings', until: 'watching' });
    // The messages shown, apart from their words said to a screen reader as they came.
    const shown = () => within(screen.getByRole('region', { name: 'Messages' })).queryAllByRole('listitem').map((item) => item.textContent);
    await waitFor(() => expect(shown()).toHaveLength(2));
    expect(shown()[0]).toMatch(/^Uploads stopped/);
    bridge.emit('folder', { folder: '/data/exports', state: 'watching' });
    await waitFor(() => expect(shown()).toEqual(['census-a.csv was refused: 2 rows have problems']));
    expect(screen.queryByRole('button', { name: 'Dismiss all messages' })).toBeNull();

    bridge.emit('notice', { level: 'warning', message: 'census-b.csv was refused: 1 row has problems' });
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss all messages' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Messages' })).toBeNull());
  });
});
