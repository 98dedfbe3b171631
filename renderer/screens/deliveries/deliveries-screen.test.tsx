// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryAttempt } from '../../../shared';
import { BridgeError } from '../../../shared/bridge';
import { createMemoryBridge } from '../../test-kit/memory-bridge';
import { renderScreen } from '../../test-kit/render-screen';
import { DeliveriesScreen } from './deliveries-screen';

const attempt = (id: number, fields: Partial<DeliveryAttempt>): DeliveryAttempt => ({
  id, type: 1, status: 2, httpStatusCode: 200, durationMs: 12, attemptCount: 0,
  createdAt: '2026-11-22T10:00:00', eventId: 'msg_first', eventType: 'import.processed', failure: null, ...fields,
});

function auditBridge(initial: DeliveryAttempt[]) {
  const bridge = createMemoryBridge();
  const attempts = [...initial];
  bridge.override('deliveries.list', ({ status, maxRetries, limit = 100 }) => ({
    items: attempts
      .filter((d) => (status === undefined || d.status === status) && (maxRetries === undefined || d.attemptCount <= maxRetries))
      .sort((a, b) => b.id - a.id)
      .slice(0, limit),
  }));
  bridge.override('deliveries.get', ({ id }) => {
    const found = attempts.find((d) => d.id === id);
    if (!found) throw new BridgeError({ name: 'BridgeError', code: 'not_found', message: `no delivery ${id}` });
    return found;
  });
  bridge.override('deliveries.redeliver', ({ id }) => {
    const next = Math.max(...attempts.map((d) => d.id)) + 1;
    const again = attempt(next, { ...attempts.find((d) => d.id === id), id: next, type: 2, status: 1, httpStatusCode: null, durationMs: 0 });
    attempts.push(again);
    return again;
  });
  return { bridge, attempts };
}

const failedThenRetried = [
  attempt(1, { status: 3, httpStatusCode: 500, durationMs: 40, failure: 'the endpoint answered 500; only a 2xx answer counts as delivered' }),
  attempt(2, { type: 2, status: 2, httpStatusCode: 204, durationMs: 1500, attemptCount: 1, createdAt: '2026-11-22T10:00:02' }),
  attempt(3, { status: 3, httpStatusCode: null, durationMs: 5000, eventId: 'msg_second', eventType: 'import.rejected' }),
];

const rowOf = (id: number) => screen.getByRole('rowheader', { name: String(id) }).closest('tr')!;
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);

afterEach(() => vi.useRealTimers());

describe('DeliveriesScreen', () => {
  it('lists the tries newest first with status in words, type, HTTP code, duration and attempt count', async () => {
    renderScreen(<DeliveriesScreen />, auditBridge(failedThenRetried).bridge);
    await screen.findByRole('table', { name: 'Delivery tries, newest first' });
    const ids = screen.getAllByRole('rowheader').map((h) => h.textContent);
    expect(ids).toEqual(['3', '2', '1']);
    // The status's cell holds the HTTP code too, shown under it only where its own column is left out (app.css).
    expect(cells(rowOf(1)).slice(1, 7)).toEqual(['Import processedmsg_first', 'New', 'FailedHTTP 500', '500', '40 ms', '0']);
    expect(cells(rowOf(2)).slice(2, 7)).toEqual(['Retry', 'DeliveredHTTP 204', '204', '1.5 s', '1']);
    expect(cells(rowOf(3)).slice(1, 5)).toEqual(['Import refusedmsg_second', 'New', 'FailedNo answer', 'No answer']);
  });

  it('says what the attempt count counts as the table shows it: a first try 0, a retry counting itself', async () => {
    renderScreen(<DeliveriesScreen />, auditBridge(failedThenRetried).bridge);
    await screen.findByRole('table', { name: 'Delivery tries, newest first' });
    // Delivery 2 is the event's first retry, and its count is 1: one retry so far, this one.
    expect(cells(rowOf(2))[6]).toBe('1');
    expect(screen.getByText(/^Attempt count:/).textContent).toBe(
      'Attempt count: 0 for the first try; for a retry, how many retries have been made so far, this one included (1 to 5). '
      + 'Times are in your local time.');
  });

  it('asks the service with the chosen filters', async () => {
    const { bridge } = auditBridge(failedThenRetried);
    renderScreen(<DeliveriesScreen />, bridge);
    const user = userEvent.setup();
    await screen.findByRole('table');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Failed');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Retries' }), 'First tries only');
    await user.selectOptions(screen.getByRole('combobox', { name: 'How many' }), 'Latest 25');
    await waitFor(() => expect(screen.getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['3', '1']));
    expect(bridge.calls.filter((c) => c.method === 'deliveries.list').at(-1)?.request).toEqual({ status: 3, maxRetries: 0, limit: 25 });
  });

  it('refreshes by itself while open, and not when auto-refresh is off', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { bridge, attempts } = auditBridge(failedThenRetried.slice(0, 1));
    renderScreen(<DeliveriesScreen />, bridge);
    await screen.findByRole('table');
    attempts.push(failedThenRetried[1]!);
    await act(() => vi.advanceTimersByTimeAsync(3500));
    await waitFor(() => expect(screen.getAllByRole('rowheader')).toHaveLength(2));

    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.click(screen.getByRole('switch', { name: 'Refresh every 3 seconds' }));
    attempts.push(failedThenRetried[2]!);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.getAllByRole('rowheader')).toHaveLength(2);
  });

  it('opens one delivery by its number and sends it again in local mode', async () => {
    renderScreen(<DeliveriesScreen />, auditBridge(failedThenRetried).bridge);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Delivery number' }), '1');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delivery 1' });
    await within(dialog).findByText('msg_first');
    const cellOf = (label: string) => within(within(dialog).getByRole('rowheader', { name: label }).closest('tr')!).getByRole('cell').textContent;
    expect(cellOf('HTTP code')).toBe('500');
    expect(cellOf('Why it failed')).toBe('The endpoint answered 500; only a 2xx answer counts as delivered.');
    await user.click(within(dialog).getByRole('button', { name: 'Send again now' }));
    expect((await within(dialog).findByRole('status')).textContent).toBe('Sent again as delivery 4.');
  });

  it('says when a delivery number does not exist, and checks what was typed', async () => {
    renderScreen(<DeliveriesScreen />, auditBridge(failedThenRetried).bridge);
    const user = userEvent.setup();
    const field = screen.getByRole('textbox', { name: 'Delivery number' });
    await user.type(field, 'abc');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await user.clear(field);
    await user.type(field, '99');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect((await screen.findByRole('alert')).textContent).toBe('There is no delivery number 99 for your client.');
  });

  it('offers no redelivery away from the local server', async () => {
    const { bridge } = auditBridge(failedThenRetried);
    bridge.state.settings = { ...bridge.state.settings, activeProfile: 'sandbox' };
    renderScreen(<DeliveriesScreen />, bridge);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Details of delivery 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delivery 2' });
    await within(dialog).findByText('Sending again is available with the local server only.');
    expect(within(dialog).queryByRole('button', { name: 'Send again now' })).toBeNull();
    // A delivered try has nothing to explain.
    expect(within(dialog).queryByRole('rowheader', { name: 'Why it failed' })).toBeNull();
  });

  it('tells a new user what deliveries are and what to do, or to set up a connection first', async () => {
    const { bridge } = auditBridge([]);
    const first = renderScreen(<DeliveriesScreen />, bridge);
    expect(await screen.findByRole('heading', { name: 'No deliveries yet' })).toBeTruthy();
    first.unmount();

    const unconfigured = createMemoryBridge();
    unconfigured.override('deliveries.list', () => { throw new BridgeError({ name: 'BridgeError', code: 'not_configured', message: 'no credentials for local' }); });
    renderScreen(<DeliveriesScreen />, unconfigured);
    expect(await screen.findByRole('heading', { name: 'No connection yet' })).toBeTruthy();
  });
});
