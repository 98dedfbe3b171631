// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FaultRuleView, LocalServerState, RequestLogEntryView, WebhookView } from '../../../shared/bridge';
import { BridgeError } from '../../../shared/bridge';
import { createMemoryBridge } from '../../test-kit/memory-bridge';
import { renderScreen } from '../../test-kit/render-screen';
import { LocalServerScreen } from './local-server-screen';

const SECRET = 'local-secret-0123456789';

function localBridge(running = false, listed: FaultRuleView[] = []) {
  const bridge = createMemoryBridge();
  let state: LocalServerState = running ? { running: true, url: 'http://127.0.0.1:45678', port: 45678, clientId: 'payroll-uploader-local' } : { running: false };
  let webhook: WebhookView = { url: null, secretSet: false };
  let rules = listed;
  const log: RequestLogEntryView[] = [
    { id: 1, at: '2026-11-22T10:00:00.000Z', method: 'POST', path: '/oauth/v1/access-token', status: 200, ms: 12 },
    { id: 2, at: '2026-11-22T10:00:01.000Z', method: 'POST', path: '/law/api/v1/census', status: 201, ms: 30 },
    { id: 3, at: '2026-11-22T10:00:02.000Z', method: 'POST', path: '/law/api/v1/receipt', status: 0, ms: 3 },
    { id: 4, at: '2026-11-22T10:00:03.000Z', method: '', path: '', status: 400, ms: 0 },
  ];
  const stopped = () => new BridgeError({ name: 'ConflictError', code: 'conflict', message: 'The local server is not running: start it first' });
  bridge.override('localServer.state', () => state);
  bridge.override('localServer.start', ({ port }) => (state = { running: true, url: `http://127.0.0.1:${port ?? 45678}`, port: port ?? 45678, clientId: 'payroll-uploader-local' }));
  bridge.override('localServer.stop', () => (state = { running: false }));
  bridge.override('localServer.credentials', () => {
    if (!state.running) throw stopped();
    return { clientId: 'payroll-uploader-local', clientSecret: SECRET };
  });
  bridge.override('localServer.webhook.get', () => webhook);
  bridge.override('localServer.webhook.set', ({ url, secret }) => {
    webhook = { url, secretSet: url !== null };
    return url !== null && secret === undefined ? { ...webhook, secret: 'whsec_made-for-you' } : webhook;
  });
  bridge.override('localServer.requestLog', ({ limit = 100 }) => ({ items: [...log].reverse().slice(0, limit) }));
  bridge.override('localServer.faults.list', () => ({ rules }));
  bridge.override('localServer.faults.set', (request) => ({ rules: (rules = request.rules) }));
  bridge.override('localServer.faults.clear', () => ({ rules: (rules = []) }));
  return { bridge, log };
}

const section = (name: string) => screen.getByRole('region', { name });

describe('LocalServerScreen', () => {
  it('starts the server, then shows its address and its client with copy buttons and the secret hidden', async () => {
    const { bridge } = localBridge(false);
    renderScreen(<LocalServerScreen />, bridge);
    const user = userEvent.setup();
    const server = await screen.findByRole('region', { name: 'Server' });
    expect(within(server).getByText('Stopped')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Request log' })).toBeNull();
    await user.type(within(server).getByRole('textbox', { name: 'Port (optional)' }), '45999');
    await user.click(within(server).getByRole('button', { name: 'Start the local server' }));

    expect(await within(section('Server')).findByText('Running')).toBeTruthy();
    expect(within(section('Server')).getByText('http://127.0.0.1:45999')).toBeTruthy();
    expect(within(section('Server')).getByRole('button', { name: 'Copy address' })).toBeTruthy();
    expect(bridge.calls.find((c) => c.method === 'localServer.start')?.request).toEqual({ port: 45999 });

    const creds = await screen.findByRole('region', { name: 'Client credentials' });
    await within(creds).findByText('payroll-uploader-local');
    expect(within(creds).queryByText(SECRET)).toBeNull();
    expect(within(creds).getByRole('button', { name: 'Copy client secret' })).toBeTruthy();
    await user.click(within(creds).getByRole('button', { name: 'Show the client secret' }));
    expect(within(creds).getByText(SECRET)).toBeTruthy();
  });

  it('refuses a port that is not one', async () => {
    const { bridge } = localBridge(false);
    renderScreen(<LocalServerScreen />, bridge);
    const user = userEvent.setup();
    const server = await screen.findByRole('region', { name: 'Server' });
    await user.type(within(server).getByRole('textbox', { name: 'Port (optional)' }), '99999');
    await user.click(within(server).getByRole('button', { name: 'Start the local server' }));
    expect(within(server).getByRole('textbox', { name: 'Port (optional)' }).getAttribute('aria-invalid')).toBe('true');
    expect(bridge.calls.some((c) => c.method === 'localServer.start')).toBe(false);
  });

  it('registers a webhook and shows the made signing secret once', async () => {
    renderScreen(<LocalServerScreen />, localBridge(true).bridge);
    const user = userEvent.setup();
    const hook = await screen.findByRole('region', { name: 'Webhook' });
    await within(hook).findByText('None registered yet.');
    await user.type(within(hook).getByRole('textbox', { name: 'Webhook address' }), 'not a url');
    await user.click(within(hook).getByRole('button', { name: 'Save webhook' }));
    expect(within(hook).getByRole('textbox', { name: 'Webhook address' }).getAttribute('aria-invalid')).toBe('true');

    await user.clear(within(hook).getByRole('textbox', { name: 'Webhook address' }));
    await user.type(within(hook).getByRole('textbox', { name: 'Webhook address' }), 'http://127.0.0.1:9000/hook');
    await user.click(within(hook).getByRole('button', { name: 'Save webhook' }));
    expect(await within(hook).findByText('whsec_made-for-you')).toBeTruthy();
    expect(within(hook).getByText('Your new signing secret. Copy it now: it is not shown again.')).toBeTruthy();
    expect(within(hook).getAllByText('http://127.0.0.1:9000/hook').length).toBeGreaterThan(0);
    await user.click(within(hook).getByRole('button', { name: 'Remove webhook' }));
    expect(await within(hook).findByText('None registered yet.')).toBeTruthy();
    expect(within(hook).queryByText('whsec_made-for-you')).toBeNull();
  });

  it('shows the server\'s refusal of an address next to the field, and why a registered address gets nothing', async () => {
    const { bridge } = localBridge(true);
    const refusal = 'The webhook address must be on this computer (localhost, 127.0.0.1 or [::1]): the built-in test server sends to nothing else';
    bridge.override('localServer.webhook.set', () => {
      throw new BridgeError({ name: 'BridgeError', code: 'invalid_argument', message: refusal, fields: [{ path: 'url', message: refusal }] });
    });
    const problem = 'the webhook URL http://192.0.2.1/hook names a host other than this machine (192.0.2.1)';
    bridge.override('localServer.webhook.get', () => ({ url: 'http://192.0.2.1/hook', secretSet: true, problem }));
    renderScreen(<LocalServerScreen />, bridge);
    const user = userEvent.setup();
    const hook = await screen.findByRole('region', { name: 'Webhook' });
    expect(await within(hook).findByText(problem)).toBeTruthy();
    expect(within(hook).getByText('Nothing is sent to this address')).toBeTruthy();
    const field = within(hook).getByRole('textbox', { name: 'Webhook address' });
    await user.type(field, 'http://payroll.example.com/hook');
    await user.click(within(hook).getByRole('button', { name: 'Save webhook' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(within(hook).getByText(refusal)).toBeTruthy();
    expect(within(hook).queryByText('Webhook saved.')).toBeNull();
  });

  it('lists the request log newest first, with method, path, status and time; a request without either says so', async () => {
    renderScreen(<LocalServerScreen />, localBridge(true).bridge);
    const table = await screen.findByRole('table', { name: 'Requests, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(1, 4).map((c) => c.textContent))).toEqual([
      ['', 'not valid HTTP (no method or path could be read)', '400'],
      ['POST', '/law/api/v1/receipt', 'Dropped'],
      ['POST', '/law/api/v1/census', '201'],
      ['POST', '/oauth/v1/access-token', '200'],
    ]);
  });

  it('adds, lists and removes fault rules, and explains a rule that does nothing', async () => {
    const { bridge } = localBridge(true);
    renderScreen(<LocalServerScreen />, bridge);
    const user = userEvent.setup();
    const faults = await screen.findByRole('region', { name: 'Fault injection' });
    await within(faults).findByText('No fault rules: the local server answers normally.');
    await user.click(within(faults).getByRole('button', { name: 'Add rule' }));
    expect(within(faults).getByRole('alert').textContent).toBe('Give a delay, an error rate, a drop rate or a processing delay.');

    const prefix = within(faults).getByRole('textbox', { name: 'Path starts with' });
    await user.clear(prefix);
    await user.type(prefix, '/law/api/v1/census');
    await user.type(within(faults).getByRole('textbox', { name: 'Error rate (%)' }), '100');
    await user.type(within(faults).getByRole('textbox', { name: 'Delay (ms)' }), '250');
    await user.click(within(faults).getByRole('button', { name: 'Add rule' }));
    const table = await within(faults).findByRole('table', { name: 'Fault rules' });
    expect(within(table).getAllByRole('cell').map((c) => c.textContent).slice(0, 5)).toEqual(['250', '100 %', '503', '—', '—']);
    expect(bridge.calls.filter((c) => c.method === 'localServer.faults.set').at(-1)?.request)
      .toEqual({ rules: [{ pathPrefix: '/law/api/v1/census', latencyMs: 250, errorRate: 1, errorStatus: 503 }] });

    await user.click(within(faults).getByRole('button', { name: 'Remove the rule for /law/api/v1/census' }));
    await waitFor(() => expect(within(faults).queryByRole('table')).toBeNull());
  });

  it('adds a rule whose only effect is a processing delay, after refusing one that is not a whole number up to 600000', async () => {
    const { bridge } = localBridge(true);
    renderScreen(<LocalServerScreen />, bridge);
    const user = userEvent.setup();
    const faults = await screen.findByRole('region', { name: 'Fault injection' });
    await within(faults).findByText('No fault rules: the local server answers normally.');
    expect(within(faults).getByText(/keeps the import it creates .* QUEUED for at least that long/)).toBeTruthy();
    const prefix = within(faults).getByRole('textbox', { name: 'Path starts with' });
    await user.clear(prefix);
    await user.type(prefix, '/law/api/v1/census');
    const delay = within(faults).getByRole('textbox', { name: 'Processing delay (ms)' });
    for (const bad of ['600001', '1.5', '-1', 'soon']) {
      await user.clear(delay);
      await user.type(delay, bad);
      await user.click(within(faults).getByRole('button', { name: 'Add rule' }));
      expect(delay.getAttribute('aria-invalid'), bad).toBe('true');
      expect(within(faults).getByText('Type a whole number from 0 to 600000.')).toBeTruthy();
      // A wrong effect is told at its field, not as a rule without any effect.
      expect(within(faults).queryByRole('alert')).toBeNull();
    }
    expect(bridge.calls.some((c) => c.method === 'localServer.faults.set')).toBe(false);

    await user.clear(delay);
    await user.type(delay, '600000');
    await user.click(within(faults).getByRole('button', { name: 'Add rule' }));
    const table = await within(faults).findByRole('table', { name: 'Fault rules' });
    expect(bridge.calls.filter((c) => c.method === 'localServer.faults.set').at(-1)?.request)
      .toEqual({ rules: [{ pathPrefix: '/law/api/v1/census', processingDelayMs: 600_000 }] });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent))
      .toEqual(['Path starts with', 'Delay (ms)', 'Error rate (%)', 'Error status', 'Drop rate (%)', 'Processing delay (ms)', 'Actions']);
    expect(within(table).getAllByRole('cell').map((c) => c.textContent).slice(0, 5)).toEqual(['—', '—', '—', '—', '600000']);
    await waitFor(() => expect(delay.getAttribute('value')).toBe(''));
  });

  it('shows the processing delay of a listed rule, and keeps it when another rule is added', async () => {
    const { bridge } = localBridge(true, [
      { pathPrefix: '/uploads/', processingDelayMs: 1500 },
      { pathPrefix: '/law/api/v1/receipt', latencyMs: 20 },
    ]);
    renderScreen(<LocalServerScreen />, bridge);
    const user = userEvent.setup();
    const faults = await screen.findByRole('region', { name: 'Fault injection' });
    const table = await within(faults).findByRole('table', { name: 'Fault rules' });
    const cellsOf = (prefix: string) => within(within(table).getByRole('rowheader', { name: prefix }).closest('tr')!)
      .getAllByRole('cell').map((c) => c.textContent).slice(0, 5);
    expect(cellsOf('/uploads/')).toEqual(['—', '—', '—', '—', '1500']);
    expect(cellsOf('/law/api/v1/receipt')).toEqual(['20', '—', '—', '—', '—']);

    await user.type(within(faults).getByRole('textbox', { name: 'Drop rate (%)' }), '50');
    await user.click(within(faults).getByRole('button', { name: 'Add rule' }));
    await within(table).findByRole('rowheader', { name: '/law/api/v1/' });
    expect(bridge.calls.filter((c) => c.method === 'localServer.faults.set').at(-1)?.request).toEqual({ rules: [
      { pathPrefix: '/uploads/', processingDelayMs: 1500 },
      { pathPrefix: '/law/api/v1/receipt', latencyMs: 20 },
      { pathPrefix: '/law/api/v1/', dropRate: 0.5 },
    ] });
  });
});
