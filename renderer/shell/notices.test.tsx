// @vitest-environment happy-dom
import '../test-kit/setup-dom';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../app';
import { createQueryClient } from '../data/query-client';
import { createMemoryBridge, makeJob } from '../test-kit/memory-bridge';

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
