// @vitest-environment happy-dom
import '../../test-kit/setup-dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { BridgeError, type JobView } from '../../../shared/bridge';
import { FLUSH_INTERVAL_MS } from '../../data/event-batcher';
import { useLiveUpdates } from '../../data/use-bridge-event';
import { createMemoryBridge, makeJob } from '../../test-kit/memory-bridge';
import { renderScreen } from '../../test-kit/render-screen';
import { QueueScreen } from './queue-screen';

function LiveQueue() {
  useLiveUpdates();
  return <QueueScreen />;
}

const watching = { folder: '/data/exports', state: 'watching' as const };

/** The app shows one screen at a time: the live updates run while the Queue is closed (the clerk is on Settings). */
function QueueOrSettings() {
  useLiveUpdates();
  const [queue, setQueue] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setQueue(!queue)}>{queue ? 'Go to Settings' : 'Back to Queue'}</button>
      {queue ? <QueueScreen /> : <p>The Settings screen</p>}
    </>
  );
}

/** Longer than the event batcher waits before it applies what it gathered. */
const afterFlush = () => new Promise((resolve) => setTimeout(resolve, FLUSH_INTERVAL_MS * 2));

/** A job as the core's `job` event carries it: the event cannot say which service the file waits for. */
const asEvent = ({ waitsFor: _, ...job }: JobView): JobView => job;

const SANDBOX = { profile: 'sandbox' as const, builtIn: false, address: 'https://sandbox.example.com' };

describe('QueueScreen', () => {
  it('shows the watched folder and pauses and resumes it', async () => {
    const bridge = createMemoryBridge({ folder: watching });
    renderScreen(<LiveQueue />, bridge);
    expect(await screen.findByText('/data/exports')).toBeTruthy();
    expect(screen.getByText('Watching')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Paused')).toBeTruthy();
    expect(bridge.state.folder.state).toBe('paused');
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(await screen.findByText('Watching')).toBeTruthy();
  });

  it('pauses and resumes with one button whose words change, so it keeps the focus, and says the new state once', async () => {
    const bridge = createMemoryBridge({ folder: watching });
    renderScreen(<LiveQueue />, bridge);
    const folder = await screen.findByRole('region', { name: 'Watched folder' });
    const button = await within(folder).findByRole('button', { name: 'Pause' });
    // What the folder's live region said so far, in order (each announcement is an element of its own).
    const said = () => [...folder.querySelectorAll('[data-announcer="polite"] > *')].map((e) => e.textContent);
    // Nothing is news when the screen opens.
    expect(said()).toEqual([]);
    await userEvent.click(button);
    await within(folder).findByText('Paused');
    expect(within(folder).getByRole('button', { name: 'Resume' })).toBe(button);
    expect(said()).toEqual(['Watched folder: Paused']);
    await userEvent.click(button);
    await within(folder).findByText('Watching');
    expect(within(folder).getByRole('button', { name: 'Pause' })).toBe(button);
    expect(said()).toEqual(['Watched folder: Paused', 'Watched folder: Watching']);
    // A state said by the core is news too: the button goes, the words say why.
    bridge.emit('folder', { ...watching, state: 'missing' });
    await within(folder).findByText('Folder missing');
    expect(said()).toEqual(['Watched folder: Paused', 'Watched folder: Watching', 'Watched folder: Folder missing']);
  });

  it('says so when the folder is missing, from a live event', async () => {
    const bridge = createMemoryBridge({ folder: watching });
    renderScreen(<LiveQueue />, bridge);
    await screen.findByText('Watching');
    bridge.emit('folder', { folder: '/data/exports', state: 'missing' });
    expect(await screen.findByText('Folder missing')).toBeTruthy();
    expect(screen.getByText(/network drive is connected/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
  });

  it('says the folder cannot be read, and what to do, rather than that it is missing', async () => {
    const bridge = createMemoryBridge({ folder: watching });
    renderScreen(<LiveQueue />, bridge);
    await screen.findByText('Watching');
    bridge.emit('folder', { folder: '/data/exports', state: 'unreadable' });
    expect(await screen.findByText('No access')).toBeTruthy();
    expect(screen.getByText(/may not open this folder.*Ask for read access to it, or choose another folder/)).toBeTruthy();
    expect(screen.queryByText(/network drive/)).toBeNull();
  });

  it('says why nothing is picked up when the environment has no service address, and a failed start says it too', async () => {
    const bridge = createMemoryBridge({ folder: { folder: '/data/exports', state: 'stopped', noService: { profile: 'sandbox', reason: 'noAddress' } } });
    bridge.override('watch.start', () => {
      throw new BridgeError({ name: 'NotConfiguredError', code: 'not_configured', message: 'No service address is set for Sandbox: enter it in Settings' });
    });
    renderScreen(<LiveQueue />, bridge);
    const folder = await screen.findByRole('region', { name: 'Watched folder' });
    expect(await within(folder).findByText(/^No service address is set for Sandbox, so files saved in this folder are not picked up/)).toBeTruthy();
    expect(within(folder).getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('#/settings');
    // Not "Save an export into the watched folder and it appears here": it would not.
    expect(screen.getByRole('heading', { name: 'Nothing in the queue' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Nothing waiting' })).toBeNull();
    await userEvent.click(within(folder).getByRole('button', { name: 'Start watching' }));
    const alert = await within(folder).findByRole('alert');
    expect(within(alert).getByText('Watching did not start')).toBeTruthy();
    expect(within(alert).getByText(/No service address is set for Sandbox: enter it in Settings/)).toBeTruthy();
    // Watching once the address is there: the failure no longer holds, nor does the reason.
    bridge.emit('folder', { folder: '/data/exports', state: 'watching' });
    await waitFor(() => expect(within(folder).queryByRole('alert')).toBeNull());
  });

  it('says that the built-in test server is stopped, with the way to the Local server screen', async () => {
    const bridge = createMemoryBridge({ folder: { folder: '/data/exports', state: 'stopped', noService: { profile: 'local', reason: 'builtInServerStopped' } } });
    renderScreen(<LiveQueue />, bridge);
    const folder = await screen.findByRole('region', { name: 'Watched folder' });
    expect(await within(folder).findByText(/^The test server built into this app is stopped, so files saved in this folder are not picked up/)).toBeTruthy();
    expect(within(folder).getByRole('link', { name: 'Open Local server' }).getAttribute('href')).toBe('#/local-server');
    expect(within(folder).queryByText(/The folder is not being watched/)).toBeNull();
    // Started again, the core watches and says so: the reason goes with the state that had it.
    bridge.emit('folder', { folder: '/data/exports', state: 'watching' });
    await waitFor(() => expect(within(folder).queryByText(/built into this app is stopped/)).toBeNull());
    expect(within(folder).queryByRole('link', { name: 'Open Local server' })).toBeNull();
  });

  it('says new files wait while the service refuses the credentials, not that they are uploaded, until that is over', async () => {
    const bridge = createMemoryBridge({ folder: watching });
    renderScreen(<LiveQueue />, bridge);
    const folder = await screen.findByRole('region', { name: 'Watched folder' });
    expect(await within(folder).findByText('New files saved in this folder are uploaded on their own.')).toBeTruthy();
    // The core's lasting notice that every file is held for the credentials, and the folder's state that says so.
    bridge.emit('notice', {
      level: 'error', until: 'credentials-accepted', id: 1, run: 'memory', at: Date.now(),
      message: 'The service did not accept the client ID acme and its secret. No file is uploaded until they are right: open Settings, …',
    });
    bridge.state.folder = { ...watching, held: 'credentials' };
    bridge.emit('folder', bridge.state.folder);
    expect(await within(folder).findByText('New files saved in this folder are picked up and checked, then wait in the queue.')).toBeTruthy();
    expect(within(folder).queryByText(/uploaded on their own/)).toBeNull();
    expect(await within(folder).findByText(/^No file is uploaded until the service accepts the client ID and secret: check them in Settings\. The message above says/)).toBeTruthy();
    expect(within(folder).getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('#/settings');
    // Paused, files already on their way do not finish either.
    await userEvent.click(within(folder).getByRole('button', { name: 'Pause' }));
    expect(await within(folder).findByText('Paused: new files saved in this folder wait until you resume.')).toBeTruthy();
    expect(within(folder).queryByText(/files already on their way finish/)).toBeNull();
    expect(within(folder).getByText(/^No file is uploaded until the service accepts/)).toBeTruthy();
    await userEvent.click(within(folder).getByRole('button', { name: 'Resume' }));
    expect(await within(folder).findByText('New files saved in this folder are picked up and checked, then wait in the queue.')).toBeTruthy();
    // The clerk dismisses the notice: the files are still held, and the header still says so, without pointing to it.
    bridge.emit('noticesGone', { run: 'memory', version: 2, ids: [1], leftOut: 0 });
    expect(await within(folder).findByText(
      'No file is uploaded until the service accepts the client ID and secret: check them in Settings. Once they are right, the files go on their own.',
    )).toBeTruthy();
    expect(within(folder).getByText('New files saved in this folder are picked up and checked, then wait in the queue.')).toBeTruthy();
    expect(within(folder).queryByText(/uploaded on their own/)).toBeNull();
    expect(within(folder).queryByText(/message above/)).toBeNull();
    expect(within(folder).getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('#/settings');
    // Over (the service took the new credentials): the core's folder state no longer says the files are held.
    bridge.emit('folder', watching);
    expect(await within(folder).findByText('New files saved in this folder are uploaded on their own.')).toBeTruthy();
    expect(within(folder).queryByText(/client ID and secret/)).toBeNull();
    expect(within(folder).queryByRole('link', { name: 'Open Settings' })).toBeNull();
  });

  it('says new files wait while the client may not upload files, as the state the window opens with says, notice or not', async () => {
    const bridge = createMemoryBridge({ folder: { ...watching, held: 'scope' } });
    bridge.override('notices.list', () => ({
      run: 'memory', version: 1, leftOut: 0,
      items: [{ level: 'error', until: 'scope-given', id: 1, run: 'memory', at: Date.now(), message: 'the client is not allowed to upload files: …' }],
    }));
    renderScreen(<LiveQueue />, bridge);
    const folder = await screen.findByRole('region', { name: 'Watched folder' });
    expect(await within(folder).findByText(/^No file is uploaded until the service allows this client to upload files: the message above says/)).toBeTruthy();
    expect(within(folder).getByText('New files saved in this folder are picked up and checked, then wait in the queue.')).toBeTruthy();
    expect(within(folder).queryByText(/uploaded on their own/)).toBeNull();
    // Dismissed, the notice no longer says what to do: the header does, and still promises no upload.
    bridge.emit('noticesGone', { run: 'memory', version: 2, ids: [1], leftOut: 0 });
    expect(await within(folder).findByText(
      'No file is uploaded until the service allows this client to upload files: ask your service provider to give it the '
        + 'permission to upload files, then press Retry now on a file in the queue.',
    )).toBeTruthy();
    expect(within(folder).getByText('New files saved in this folder are picked up and checked, then wait in the queue.')).toBeTruthy();
    expect(within(folder).queryByText(/uploaded on their own/)).toBeNull();
  });

  it('says why nothing goes while paused with no usable service, not that files on their way finish', async () => {
    const bridge = createMemoryBridge({ folder: { folder: '/data/exports', state: 'paused', noService: { profile: 'local', reason: 'builtInServerStopped' } } });
    renderScreen(<LiveQueue />, bridge);
    const folder = await screen.findByRole('region', { name: 'Watched folder' });
    expect(await within(folder).findByText(/^The test server built into this app is stopped, so files saved in this folder are not picked up/)).toBeTruthy();
    expect(within(folder).getByRole('link', { name: 'Open Local server' }).getAttribute('href')).toBe('#/local-server');
    expect(within(folder).queryByText(/files already on their way finish/)).toBeNull();
    expect(within(folder).getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('tells a new user what to do when nothing is waiting', async () => {
    renderScreen(<LiveQueue />, createMemoryBridge({ folder: watching }));
    expect(await screen.findByRole('heading', { name: 'Nothing waiting' })).toBeTruthy();
    expect(screen.getByText(/Save an export into the watched folder/)).toBeTruthy();
  });

  it('says the queue cannot be shown when it never could be read, and that the list shown is behind when a refresh fails', async () => {
    const unreachable = () => {
      throw new BridgeError({ name: 'BridgeTransportError', code: 'internal', message: "the app's engine cannot be reached" });
    };
    const never = createMemoryBridge({ folder: watching });
    never.override('jobs.query', unreachable);
    const first = renderScreen(<LiveQueue />, never);
    expect(within(await screen.findByRole('alert')).getByText('The queue cannot be shown')).toBeTruthy();
    first.unmount();

    const job = makeJob({ name: 'census-read.csv', state: 'waiting', resumeState: 'granting', attempts: 1, lastError: 'the service cannot be reached' });
    const bridge = createMemoryBridge({ folder: watching, jobs: [job] });
    renderScreen(<LiveQueue />, bridge);
    await screen.findByText('census-read.csv');
    bridge.override('jobs.query', unreachable);
    // A folder state refetches the queue; the engine is gone by then.
    bridge.emit('folder', watching);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The queue could not be brought up to date: the list below is as it was when last read')).toBeTruthy();
    expect(within(alert).queryByText('The queue cannot be shown')).toBeNull();
    expect(screen.getByText('census-read.csv')).toBeTruthy();
  });

  it('says "Nothing in the queue" when no folder is chosen yet, not that a file saved there would appear', async () => {
    // "Set up later" with no folder chosen: nothing is watched.
    renderScreen(<LiveQueue />, createMemoryBridge({ folder: { state: 'stopped' } }));
    const folder = await screen.findByRole('region', { name: 'Watched folder' });
    expect(within(folder).getByText('No folder chosen yet.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Nothing in the queue' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Nothing waiting' })).toBeNull();
    expect(screen.queryByText(/Save an export into the watched folder/)).toBeNull();
  });

  it('says files wait in the folder, not that every file was dealt with, while some cannot be taken up', async () => {
    const bridge = createMemoryBridge({ folder: { ...watching, untaken: 1 } });
    renderScreen(<LiveQueue />, bridge);
    expect(await screen.findByRole('heading', { name: '1 file waits in the folder' })).toBeTruthy();
    expect(screen.getByText(/^It cannot be taken up yet: the message above says why and what to do\. It stays in the watched folder/)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Nothing waiting' })).toBeNull();
    expect(screen.queryByText(/has been dealt with/)).toBeNull();
    // A second one, then a file that could be taken up beside them: the queue lists it and still counts the others.
    // (The core's state and its event say the same, whichever the screen reads last.)
    bridge.state.folder = { ...watching, untaken: 2 };
    bridge.emit('folder', bridge.state.folder);
    expect(await screen.findByRole('heading', { name: '2 files wait in the folder' })).toBeTruthy();
    const taken = makeJob({ name: 'census-taken.csv', state: 'found' });
    bridge.state.jobs = [taken];
    bridge.emit('job', taken);
    expect(await screen.findByText('1 file in the queue')).toBeTruthy();
    expect(screen.getByText('2 more files wait in the folder: they cannot be taken up yet, see the message above.')).toBeTruthy();
    // Taken up at last (or moved away): the count goes with them.
    bridge.state.folder = watching;
    bridge.emit('folder', watching);
    await waitFor(() => expect(screen.queryByText(/more files? waits? in the folder/)).toBeNull());
  });

  it('lists each file in flight with its step', async () => {
    const bridge = createMemoryBridge({
      folder: watching,
      jobs: [
        makeJob({ name: 'census-a.csv', state: 'found' }),
        makeJob({ name: 'census-b.csv', state: 'hashing' }),
        makeJob({ name: 'census-c.csv', state: 'uploading' }),
        makeJob({ name: 'receipt-d.csv', state: 'waiting', resumeState: 'granting', attempts: 2, lastError: 'the service cannot be reached', nextAttemptAt: Date.now() + 60_000 }),
        makeJob({ name: 'old.csv', state: 'uploaded' }),
        // Held for its census file: no try made, none set.
        makeJob({ name: 'receipt-e.csv', state: 'waiting', resumeState: 'uploading', attempts: 0, lastError: 'waits for census-c.csv to be uploaded first' }),
      ],
    });
    renderScreen(<LiveQueue />, bridge);
    const list = await screen.findByRole('list', { name: 'Files in the queue' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/census-a\.csv.*Found/),
      expect.stringMatching(/census-b\.csv.*Checking/),
      expect.stringMatching(/census-c\.csv.*Uploading/),
      expect.stringMatching(/receipt-d\.csv.*Waiting to retry.*2 tries so far/),
      expect.stringMatching(/receipt-e\.csv.*Waiting(?! to retry).*Waits for census-c\.csv to be uploaded first\.$/),
    ]);
    expect(items[4]!.textContent).not.toMatch(/tries? so far|Next try/);
    // The core's reason reads as a sentence before the next one ("… reached. Next try at …").
    expect(items[3]!.textContent).toMatch(/The service cannot be reached\. Next try at /);
    expect(screen.getByText('5 files in the queue')).toBeTruthy();
  });

  it('shows bytes, speed and time left while a file uploads', async () => {
    const job = makeJob({ name: 'census-big.csv', state: 'uploading', size: 10 * 1024 * 1024 });
    const bridge = createMemoryBridge({ folder: watching, jobs: [job] });
    renderScreen(<LiveQueue />, bridge);
    await screen.findByText('census-big.csv');
    bridge.emit('progress', { id: job.id, phase: 'uploading', bytes: 4 * 1024 * 1024, total: 10 * 1024 * 1024, bytesPerSecond: 1024 * 1024 });
    const bar = await screen.findByRole('progressbar', { name: 'Upload of census-big.csv' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('4.0 MB of 10.0 MB · 1.0 MB/s · about 6 s left')).toBeTruthy();
  });

  it('retries a file waiting on the network now', async () => {
    const job = makeJob({ name: 'receipt-net.csv', state: 'waiting', resumeState: 'granting', attempts: 1 });
    const bridge = createMemoryBridge({ folder: watching, jobs: [job] });
    renderScreen(<LiveQueue />, bridge);
    // Its name starts with the words it shows (WCAG 2.5.3), so "click Retry now" said to speech input reaches it.
    const retry = await screen.findByRole('button', { name: 'Retry now: receipt-net.csv' });
    expect(retry.textContent).toBe('Retry now');
    await userEvent.click(retry);
    await waitFor(() => expect(bridge.calls.some((c) => c.method === 'jobs.retryNow')).toBe(true));
    expect(bridge.state.jobs[0]?.state).toBe('granting');
  });

  it('says which service a file waits for when uploads go elsewhere now, with no Retry now that could not send it', async () => {
    const bridge = createMemoryBridge({
      folder: watching,
      jobs: [
        makeJob({ name: 'census-sandbox.csv', state: 'found', waitsFor: { profile: 'sandbox', builtIn: false, address: 'https://sandbox.example.com' } }),
        makeJob({ name: 'census-builtin.csv', state: 'waiting', resumeState: 'granting', attempts: 2, waitsFor: { profile: 'local', builtIn: true } }),
      ],
    });
    renderScreen(<LiveQueue />, bridge);
    const rows = await screen.findAllByText('Waiting for its service');
    expect(rows).toHaveLength(2);
    expect(screen.getByText(/Queued for Sandbox \(https:\/\/sandbox\.example\.com\), and sent only there\. It is sent once Sandbox is the active environment again/)).toBeTruthy();
    expect(screen.getByText(/Queued for the test server built into this app.*start it on the Local server screen/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Retry now/ })).toBeNull();
  });

  it('tells a failed Retry now outside the row, whole, and shows what the core says of the file', async () => {
    const job = makeJob({ name: 'census-moved.csv', state: 'waiting', resumeState: 'granting', attempts: 2, lastError: 'the service cannot be reached' });
    const bridge = createMemoryBridge({ folder: watching, jobs: [job] });
    const refusal = 'census-moved.csv was queued for Sandbox (https://sandbox.example.com) and is sent only there: '
      + 'make Sandbox the active environment in Settings, with that address, and it is sent';
    bridge.override('jobs.retryNow', () => {
      throw new BridgeError({ name: 'ConflictError', code: 'conflict', message: refusal });
    });
    renderScreen(<LiveQueue />, bridge);
    const retry = await screen.findByRole('button', { name: 'Retry now: census-moved.csv' });
    // The core's answer is newer than the screen: the file waits for another service now.
    bridge.state.jobs[0]!.waitsFor = SANDBOX;
    await userEvent.click(retry);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Retry now did not work for census-moved.csv')).toBeTruthy();
    expect(alert.textContent).toContain(`${refusal}.`);
    // Not in a row of the list, whose height is fixed and would cut it off.
    expect(alert.closest('[role="listitem"]')).toBeNull();
    // The row is fetched again and says why Retry now could not send it; the message stays until dismissed.
    expect(await screen.findByText('Waiting for its service')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry now: census-moved.csv' })).toBeNull();
    expect(screen.getByRole('alert')).toBe(alert);
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('shows a file waiting for its service after a switch, even when the old service\'s last job event comes just before', async () => {
    const job = makeJob({ name: 'census-switch.csv', state: 'waiting', resumeState: 'granting', attempts: 1 });
    const bridge = createMemoryBridge({ folder: watching, jobs: [job] });
    renderScreen(<LiveQueue />, bridge);
    await screen.findByRole('button', { name: 'Retry now: census-switch.csv' });
    // The switch: the old pipeline stops (a last job event), the core says the folder state, uploads go elsewhere.
    bridge.state.jobs[0]!.waitsFor = SANDBOX;
    bridge.emit('job', asEvent({ ...job, attempts: 2 }));
    bridge.emit('folder', watching);
    // The events are applied after the batcher's interval and the queue fetched again: waited for, not given a fixed
    // time that a loaded machine may not keep (the fetch's answer is drawn in a task of its own).
    expect(await screen.findByText('Waiting for its service', undefined, { timeout: 10_000 })).toBeTruthy();
    // And it stays so: nothing of what came before the switch puts the old step back.
    await afterFlush();
    await afterFlush();
    expect(screen.getByText('Waiting for its service')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry now: census-switch.csv' })).toBeNull();
  });

  it('opens on the files waiting for their service when the switch happened while the Queue was closed', async () => {
    const job = makeJob({ name: 'census-away.csv', state: 'waiting', resumeState: 'granting', attempts: 1 });
    const other = makeJob({ name: 'census-new.csv', state: 'found' });
    const bridge = createMemoryBridge({ folder: watching, jobs: [job] });
    renderScreen(<QueueOrSettings />, bridge);
    await screen.findByRole('button', { name: 'Retry now: census-away.csv' });
    await userEvent.click(screen.getByRole('button', { name: 'Go to Settings' }));
    // Switched on Settings: the folder state is said, and the new service's pipeline goes on with its own files.
    bridge.state.jobs[0]!.waitsFor = SANDBOX;
    bridge.emit('folder', watching);
    await afterFlush();
    bridge.state.jobs.push(other);
    bridge.emit('job', asEvent(other));
    await afterFlush();
    await userEvent.click(screen.getByRole('button', { name: 'Back to Queue' }));
    expect(await screen.findByText('Waiting for its service')).toBeTruthy();
    expect(screen.getByText('census-new.csv')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry now: census-away.csv' })).toBeNull();
  });

  it('opens a waiting file\'s drawer with all of why it waits, which the row has two lines for', async () => {
    const reason = 'requesting an upload address failed: the service answered 503 Service Unavailable: the service is down '
      + 'for maintenance until 22:00; files sent before then are kept and processed in the order they came (trace id 4bf92f3577b34da6)';
    const name = `census-${'folha-de-pagamento-filial-sao-paulo-'.repeat(6)}2026-06-30.csv`;
    const waiting = makeJob({ name, state: 'waiting', resumeState: 'granting', attempts: 2, lastError: reason, nextAttemptAt: Date.now() + 60_000 });
    const held = makeJob({ name: 'census-held.csv', state: 'found', waitsFor: { ...SANDBOX, clientId: 'acme-payroll' } });
    const moving = makeJob({ name: 'census-moving.csv', state: 'uploading' });
    const bridge = createMemoryBridge({ folder: watching, jobs: [waiting, held, moving] });
    renderScreen(<LiveQueue />, bridge);
    const list = await screen.findByRole('list', { name: 'Files in the queue' });
    // Every button of a row is named first by the words it shows.
    for (const button of within(list).getAllByRole('button')) expect(button.getAttribute('aria-label')).toMatch(new RegExp(`^${button.textContent}: `));
    // Only the files that wait have a reason longer than their row.
    expect(within(list).queryByRole('button', { name: 'Details: census-moving.csv' })).toBeNull();

    await userEvent.click(within(list).getByRole('button', { name: `Details: ${name}` }));
    const drawer = await screen.findByRole('dialog', { name });
    const cell = (label: string) => within(drawer).getByRole('rowheader', { name: label }).closest('tr')!.querySelector('td')!.textContent;
    expect(cell('Why it waits')).toMatch(/^Requesting an upload address failed: .* \(trace id 4bf92f3577b34da6\)\. Next try at .*\. 2 tries so far\.$/);
    expect(cell('Step')).toBe('Waiting to retry');
    expect(cell('Found as')).toBe(`/data/exports/${name}`);
    await userEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // A held file's instruction, whole.
    await userEvent.click(within(list).getByRole('button', { name: 'Details: census-held.csv' }));
    const heldDrawer = await screen.findByRole('dialog', { name: 'census-held.csv' });
    expect(within(heldDrawer).getByText(/ as client acme-payroll, and sent only there, as that client\. It is sent once Sandbox is the active environment, with that address and client ID acme-payroll, in Settings\.$/)).toBeTruthy();
    // The drawer follows the file: once it leaves the queue, it says so.
    bridge.state.jobs = bridge.state.jobs.filter((j) => j.id !== held.id);
    bridge.emit('result', { ...held, state: 'uploaded', outcome: 'uploaded', finished: true });
    expect(await within(heldDrawer).findByText('census-held.csv is no longer in the queue. History shows how it ended.')).toBeTruthy();
  });

  it('follows a file from found to finished through events', async () => {
    const bridge = createMemoryBridge({ folder: watching });
    renderScreen(<LiveQueue />, bridge);
    await screen.findByRole('heading', { name: 'Nothing waiting' });
    const job = makeJob({ name: 'census-live.csv', state: 'found' });
    bridge.emit('job', job);
    expect(await screen.findByText('census-live.csv')).toBeTruthy();
    bridge.emit('job', { ...job, state: 'uploading' });
    await screen.findByText('Uploading');
    bridge.emit('result', { ...job, state: 'uploaded', outcome: 'uploaded', finished: true });
    expect(await screen.findByRole('heading', { name: 'Nothing waiting' })).toBeTruthy();
  });

  // In browser mode an answer and the events come on different connections: an answer made before an event can land after it.
  it('keeps the folder state an event said while an answer made before it is still on its way', async () => {
    const bridge = createMemoryBridge({ folder: watching });
    let release: (() => void) | undefined;
    bridge.override('watch.state', () => new Promise((resolve) => { release = () => resolve(watching); }));
    renderScreen(<LiveQueue />, bridge);
    await waitFor(() => expect(release).toBeDefined());
    bridge.emit('folder', { ...watching, state: 'paused' });
    expect(await screen.findByText('Paused')).toBeTruthy();
    release!();
    await afterFlush();
    await afterFlush();
    expect(screen.getByText('Paused')).toBeTruthy();
    expect(screen.queryByText('Watching')).toBeNull();
  });

  it('keeps what a job event said while an answer of the queue made before it is still on its way', async () => {
    const job = makeJob({ name: 'census-race.csv', state: 'uploading' });
    const bridge = createMemoryBridge({ folder: watching, jobs: [job] });
    renderScreen(<LiveQueue />, bridge);
    await screen.findByText('census-race.csv');
    // The queue is asked for again (a folder state came), answered while the file was still uploading.
    let release: (() => void) | undefined;
    bridge.override('jobs.query', () => new Promise((resolve) => { release = () => resolve({ total: 1, items: [job] }); }));
    bridge.emit('folder', watching);
    await waitFor(() => expect(release).toBeDefined());
    bridge.emit('result', { ...job, state: 'uploaded', outcome: 'uploaded', finished: true });
    expect(await screen.findByRole('heading', { name: 'Nothing waiting' })).toBeTruthy();
    release!();
    await afterFlush();
    await afterFlush();
    expect(screen.getByRole('heading', { name: 'Nothing waiting' })).toBeTruthy();
    expect(screen.queryByText('census-race.csv')).toBeNull();
  });
});
