// @vitest-environment happy-dom
import '../test-kit/setup-dom';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { KeptNotice, Notice } from '../../shared/bridge';
import { App } from '../app';
import { createQueryClient } from '../data/query-client';
import { configuredMemoryBridge, createMemoryBridge, makeJob } from '../test-kit/memory-bridge';

describe('Notices about a refused file', () => {
  it('go once a job for that file is found again (put back in another window), and only then', async () => {
    const bridge = createMemoryBridge({
      credentials: { local: { clientId: 'clerk-app', secret: 'right-secret' }, sandbox: undefined, production: undefined },
      folder: { folder: '/data/exports', state: 'watching' },
    });
    bridge.state.settings = { ...bridge.state.settings, watchedFolder: '/data/exports' };
    render(<App bridge={bridge} queryClient={createQueryClient()} />);
    await screen.findByRole('heading', { name: 'Queue', level: 2 });

    // A new version found before the refusal of the earlier one was said (the notice says it is queued again): the
    // new job moving on does not take that notice away.
    bridge.emit('job', makeJob({ id: 20, name: 'payroll.csv', state: 'found' }));
    bridge.emit('notice', {
      level: 'warning', message: 'payroll.csv was refused: bad header; the new version is queued again', jobId: 19, path: '/data/exports/payroll.csv',
    });
    bridge.emit('job', makeJob({ id: 20, name: 'payroll.csv', state: 'hashing' }));
    bridge.emit('notice', { level: 'warning', message: 'census-a.csv was refused: 2 rows have problems', jobId: 7, path: '/data/exports/census-a.csv' });
    bridge.emit('notice', { level: 'warning', message: 'census-b.csv was refused: 1 row has problems', jobId: 8, path: '/data/exports/census-b.csv' });
    expect(await screen.findByText(/census-a.csv was refused/)).toBeTruthy();

    // census-a.csv put back in another window: the core queues it again where it was found, as a new job.
    bridge.emit('job', makeJob({ id: 9, name: 'census-a.csv', state: 'found' }));
    await waitFor(() => expect(screen.queryByText(/census-a.csv was refused/)).toBeNull());
    expect(screen.getByText(/census-b.csv was refused/)).toBeTruthy();
    expect(screen.getByText(/payroll.csv was refused/)).toBeTruthy();
  });
});

describe('Notices the core keeps', () => {
  const RUN = 'run-1';
  const kept = (id: number, message: string, extra: Partial<Notice> = {}): KeptNotice =>
    ({ level: 'warning', message, id, run: RUN, at: Date.UTC(2026, 10, 20, 9) + id, ...extra });
  const configured = configuredMemoryBridge;
  const messages = async () => screen.findByRole('status', { name: 'Messages' });

  it('shows what the core said before the window opened, and a dismissal asks the core to take it away everywhere', async () => {
    const bridge = configured();
    bridge.override('notices.list', () => ({
      run: RUN, version: 2, leftOut: 0,
      items: [kept(2, 'census-b.csv was refused: 1 row has problems'), kept(1, 'census-a.csv was refused: missing column cpf')],
    }));
    render(<App bridge={bridge} queryClient={createQueryClient()} />);
    const box = await messages();
    expect(await within(box).findByText('census-a.csv was refused: missing column cpf')).toBeTruthy();
    expect(within(box).getByText('census-b.csv was refused: 1 row has problems')).toBeTruthy();

    const alert = within(box).getByText(/census-a.csv/).closest('[role="alert"]') as HTMLElement;
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss message' }));
    await waitFor(() => expect(within(box).queryByText(/census-a.csv/)).toBeNull());
    expect(bridge.calls.filter((c) => c.method === 'notices.dismiss')).toEqual([{ method: 'notices.dismiss', request: { run: RUN, id: 1 } }]);

    // Dismissed in another window: the core says it is gone, and it goes here too.
    bridge.emit('noticesGone', { run: RUN, version: 3, ids: [1], leftOut: 0 });
    bridge.emit('noticesGone', { run: RUN, version: 4, ids: [2], leftOut: 0 });
    await waitFor(() => expect(within(box).queryByText(/census-b.csv/)).toBeNull());
  });

  it('applies the events that came while the list was on its way, and no event twice', async () => {
    const bridge = configured();
    bridge.override('notices.list', () => {
      // Said while the answer (as of change 2) is on its way: 2 is in the list already, 3 is not.
      bridge.emit('notice', kept(2, 'census-b.csv was refused: 1 row has problems'));
      bridge.emit('notice', kept(3, 'census-c.csv was refused: empty file'));
      return { run: RUN, version: 2, leftOut: 0, items: [kept(2, 'census-b.csv was refused: 1 row has problems'), kept(1, 'census-a.csv was refused: bad header')] };
    });
    render(<App bridge={bridge} queryClient={createQueryClient()} />);
    const box = await messages();
    expect(await within(box).findByText('census-c.csv was refused: empty file')).toBeTruthy();
    expect(within(box).getAllByText(/census-b.csv was refused/)).toHaveLength(1);
    expect(within(box).getByText(/census-a.csv was refused/)).toBeTruthy();
  });

  it('asks for the list again when an event is missing, or another run of the engine speaks', async () => {
    const bridge = configured();
    let answer = { run: RUN, version: 1, leftOut: 0, items: [kept(1, 'census-a.csv was refused: bad header')] };
    bridge.override('notices.list', () => answer);
    render(<App bridge={bridge} queryClient={createQueryClient()} />);
    const box = await messages();
    await within(box).findByText(/census-a.csv/);

    // Change 2 never came: the list as of 3 shows what the window missed.
    answer = { run: RUN, version: 3, leftOut: 0, items: [kept(3, 'census-c.csv was refused: empty file'), kept(1, 'census-a.csv was refused: bad header')] };
    bridge.emit('notice', kept(3, 'census-c.csv was refused: empty file'));
    expect(await within(box).findByText(/census-c.csv/)).toBeTruthy();
    const asked = bridge.calls.filter((c) => c.method === 'notices.list').length;
    expect(asked).toBe(2);

    // The engine started again: what the old one kept is gone with it.
    answer = { run: 'run-2', version: 1, leftOut: 0, items: [{ ...kept(1, 'resuming 2 uploads from the last run'), run: 'run-2' }] };
    bridge.emit('notice', { ...kept(1, 'resuming 2 uploads from the last run'), run: 'run-2' });
    expect(await within(box).findByText('resuming 2 uploads from the last run')).toBeTruthy();
    await waitFor(() => expect(within(box).queryByText(/census-/)).toBeNull());
  });

  it('shows the newest few, says how many wait and how many were left out, and dismisses all up to what was shown', async () => {
    const bridge = configured();
    const items = Array.from({ length: 8 }, (_, i) => kept(8 - i, `file-${8 - i}.csv was refused: empty file`));
    bridge.override('notices.list', () => ({ run: RUN, version: 8, leftOut: 12, items }));
    render(<App bridge={bridge} queryClient={createQueryClient()} />);
    const box = await messages();
    await within(box).findByText('file-8.csv was refused: empty file');
    expect(within(box).getAllByRole('alert')).toHaveLength(5);
    expect(within(box).queryByText(/file-3.csv/)).toBeNull();
    expect(within(box).getByText('3 earlier messages: dismiss these to see them.')).toBeTruthy();
    expect(within(box).getByText(/12 older messages were left out: only the newest 100 are kept/)).toBeTruthy();

    await userEvent.click(within(box).getAllByRole('button', { name: 'Dismiss message' })[0] as HTMLElement);
    expect(await within(box).findByText('file-3.csv was refused: empty file')).toBeTruthy();

    await userEvent.click(within(box).getByRole('button', { name: 'Dismiss all messages' }));
    await waitFor(() => expect(within(box).queryAllByRole('alert')).toHaveLength(0));
    expect(within(box).queryByText(/left out/)).toBeNull();
    expect(bridge.calls.filter((c) => c.method === 'notices.dismissAll')).toEqual([{ method: 'notices.dismissAll', request: { run: RUN, upTo: 8 } }]);
  });
});
