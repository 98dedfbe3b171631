// @vitest-environment happy-dom
import '../test-kit/setup-dom';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { KeptNotice, Notice } from '../../shared/bridge';
import { App } from '../app';
import { createQueryClient } from '../data/query-client';
import { announced, forgetAnnouncements, nestedLiveRegions, recordAnnouncements } from '../test-kit/announcements';
import { configuredMemoryBridge, createMemoryBridge, makeJob } from '../test-kit/memory-bridge';

/** The messages shown, in order (the list in the region Messages; none when it is not there). */
const shownMessages = (): string[] => {
  const region = screen.queryByRole('region', { name: 'Messages' });
  return region ? within(region).queryAllByRole('listitem').map((item) => item.textContent ?? '') : [];
};
const dismissButton = (name: string) => within(screen.getByRole('region', { name: 'Messages' })).getByRole('button', { name });

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
    await waitFor(() => expect(shownMessages()).toContain('census-a.csv was refused: 2 rows have problems'));

    // census-a.csv put back in another window: the core queues it again where it was found, as a new job.
    bridge.emit('job', makeJob({ id: 9, name: 'census-a.csv', state: 'found' }));
    await waitFor(() => expect(shownMessages()).toEqual([
      'census-b.csv was refused: 1 row has problems', 'payroll.csv was refused: bad header; the new version is queued again',
    ]));
  });
});

describe('Notices the core keeps', () => {
  const RUN = 'run-1';
  const kept = (id: number, message: string, extra: Partial<Notice> = {}): KeptNotice =>
    ({ level: 'warning', message, id, run: RUN, at: Date.UTC(2026, 10, 20, 9) + id, ...extra });
  const configured = configuredMemoryBridge;
  const messages = async () => screen.findByRole('region', { name: 'Messages' });

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

    await userEvent.click(within(box).getByRole('button', { name: 'Dismiss: census-a.csv was refused…' }));
    await waitFor(() => expect(shownMessages()).toEqual(['census-b.csv was refused: 1 row has problems']));
    expect(bridge.calls.filter((c) => c.method === 'notices.dismiss')).toEqual([{ method: 'notices.dismiss', request: { run: RUN, id: 1 } }]);

    // Dismissed in another window: the core says it is gone, and it goes here too.
    bridge.emit('noticesGone', { run: RUN, version: 3, ids: [1], leftOut: 0 });
    bridge.emit('noticesGone', { run: RUN, version: 4, ids: [2], leftOut: 0 });
    await waitFor(() => expect(shownMessages()).toEqual([]));
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
    await waitFor(() => expect(shownMessages()).toEqual(['resuming 2 uploads from the last run']));
  });

  it('shows the newest few, says how many wait and how many were left out, and dismisses all up to what was shown', async () => {
    const bridge = configured();
    const items = Array.from({ length: 8 }, (_, i) => kept(8 - i, `file-${8 - i}.csv was refused: empty file`));
    bridge.override('notices.list', () => ({ run: RUN, version: 8, leftOut: 12, items }));
    render(<App bridge={bridge} queryClient={createQueryClient()} />);
    const box = await messages();
    await within(box).findByText('file-8.csv was refused: empty file');
    expect(within(box).getAllByRole('listitem')).toHaveLength(5);
    expect(within(box).queryByText(/file-3.csv/)).toBeNull();
    expect(within(box).getByText('3 earlier messages: dismiss these to see them.')).toBeTruthy();
    expect(within(box).getByText(/12 older messages were left out: only the newest 100 are kept/)).toBeTruthy();

    await userEvent.click(within(box).getByRole('button', { name: 'Dismiss: file-8.csv was refused…' }));
    expect(await within(box).findByText('file-3.csv was refused: empty file')).toBeTruthy();

    await userEvent.click(within(box).getByRole('button', { name: 'Dismiss all messages' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Messages' })).toBeNull());
    expect(bridge.calls.filter((c) => c.method === 'notices.dismissAll')).toEqual([{ method: 'notices.dismissAll', request: { run: RUN, upTo: 8 } }]);
  });

  it('names each Dismiss button after its message, and hands the focus on to the next message, the one before, then the screen', async () => {
    const bridge = configured();
    const said = ['census-c.csv was refused: empty file', 'census-b.csv was refused: 1 row has problems',
      'payroll.xlsx is not a CSV export, so it is not uploaded; it stays in the watched folder.'];
    bridge.override('notices.list', () => ({ run: RUN, version: 3, leftOut: 0, items: said.map((message, i) => kept(3 - i, message)) }));
    render(<App bridge={bridge} queryClient={createQueryClient()} />);
    const box = await messages();
    await within(box).findByText(said[0]!);
    expect(within(box).getAllByRole('button').map((button) => button.getAttribute('aria-label') ?? button.textContent)).toEqual([
      'Dismiss all messages', 'Dismiss: census-c.csv was refused…', 'Dismiss: census-b.csv was refused…', 'Dismiss: payroll.xlsx is not a CSV export…',
    ]);

    // The middle one: the focus goes to the message that takes its place.
    dismissButton('Dismiss: census-b.csv was refused…').focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(shownMessages()).toHaveLength(2));
    expect(document.activeElement).toBe(dismissButton('Dismiss: payroll.xlsx is not a CSV export…'));
    // The last one: to the one before it.
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(shownMessages()).toEqual([said[0]]));
    expect(document.activeElement).toBe(dismissButton('Dismiss: census-c.csv was refused…'));
    // None left: to the screen, where the next Tab goes on.
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(shownMessages()).toEqual([]));
    expect(document.activeElement).toBe(document.getElementById('main'));
  });

  it('hands the focus on as well when the message goes by itself, or is dismissed in another window', async () => {
    const bridge = configured();
    bridge.override('notices.list', () => ({
      run: RUN, version: 2, leftOut: 0, items: [kept(2, 'census-b.csv was refused: 1 row has problems'), kept(1, 'census-a.csv was refused: bad header')],
    }));
    render(<App bridge={bridge} queryClient={createQueryClient()} />);
    await messages();
    await waitFor(() => expect(shownMessages()).toHaveLength(2));
    dismissButton('Dismiss: census-b.csv was refused…').focus();
    // A message said meanwhile comes above it: the focus stays where it is, and its place moves down with it.
    bridge.emit('notice', kept(3, 'census-c.csv was refused: empty file'));
    await waitFor(() => expect(shownMessages()).toHaveLength(3));
    expect(document.activeElement).toBe(dismissButton('Dismiss: census-b.csv was refused…'));
    bridge.emit('noticesGone', { run: RUN, version: 4, ids: [2], leftOut: 0 });
    await waitFor(() => expect(shownMessages()).toHaveLength(2));
    expect(document.activeElement).toBe(dismissButton('Dismiss: census-a.csv was refused…'));
  });

  it('takes the focus to the screen after Dismiss all', async () => {
    const bridge = configured();
    bridge.override('notices.list', () => ({
      run: RUN, version: 2, leftOut: 0, items: [kept(2, 'census-b.csv was refused: 1 row has problems'), kept(1, 'census-a.csv was refused: bad header')],
    }));
    render(<App bridge={bridge} queryClient={createQueryClient()} />);
    const box = await messages();
    within(box).getByRole('button', { name: 'Dismiss all messages' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(shownMessages()).toEqual([]));
    expect(document.activeElement).toBe(document.getElementById('main'));
  });

  it('says each message once, as it comes, and not the list again when one comes or goes', async () => {
    const bridge = configured();
    bridge.override('notices.list', () => ({ run: RUN, version: 1, leftOut: 0, items: [kept(1, 'census-a.csv was refused: bad header')] }));
    const stop = recordAnnouncements();
    try {
      render(<App bridge={bridge} queryClient={createQueryClient()} />);
      const box = await messages();
      await within(box).findByText(/census-a.csv/);
      await waitFor(() => expect(announced()).toEqual(['census-a.csv was refused: bad header']));
      forgetAnnouncements();

      bridge.emit('notice', kept(2, 'census-b.csv was refused: 1 row has problems'));
      bridge.emit('notice', kept(3, 'census-c.csv was refused: empty file'));
      await waitFor(() => expect(shownMessages()).toHaveLength(3));
      await waitFor(() => expect(announced()).toEqual(['census-b.csv was refused: 1 row has problems', 'census-c.csv was refused: empty file']));
      forgetAnnouncements();

      await userEvent.click(dismissButton('Dismiss: census-b.csv was refused…'));
      bridge.emit('noticesGone', { run: RUN, version: 4, ids: [1], leftOut: 0 });
      await waitFor(() => expect(shownMessages()).toEqual(['census-c.csv was refused: empty file']));
      // What went is not said, nor what stays said again; and no live region sits in another.
      bridge.emit('notice', kept(5, 'census-d.csv was refused: empty file'));
      await waitFor(() => expect(shownMessages()).toHaveLength(2));
      await waitFor(() => expect(announced()).toEqual(['census-d.csv was refused: empty file']));
      expect(nestedLiveRegions()).toEqual([]);
    } finally {
      stop();
    }
  });
});
