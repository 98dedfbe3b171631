import { describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/bridge';
import { trayMenuTemplate, type TrayActions } from './tray-menu';
import { createTrayTracker, type TrayModel } from './tray-state';

const job = (id: number, over: Partial<JobView> = {}): JobView => ({
  id, name: `census-${id}.csv`, path: `/in/census-${id}.csv`, size: 10, state: 'hashing', finished: false,
  foundAt: 1, foundDay: '2026-03-31', stateChangedAt: 1, attempts: 0, warningCount: 0, ...over,
});

describe('tray state', () => {
  it('is idle, then uploading while files are in the queue, then idle again', () => {
    const tracker = createTrayTracker();
    tracker.folder({ state: 'watching', folder: '/in' });
    expect(tracker.model()).toMatchObject({ status: 'idle', summary: 'Idle (watching)' });
    tracker.job(job(1));
    tracker.job(job(2, { state: 'uploading' }));
    expect(tracker.model()).toMatchObject({ status: 'uploading', summary: 'Uploading 2 files (watching)', active: 2 });
    tracker.result(job(1, { state: 'uploaded', outcome: 'uploaded', finished: true }));
    tracker.result(job(2, { state: 'duplicate', outcome: 'duplicate', finished: true }));
    expect(tracker.model().status).toBe('idle');
  });

  it('needs attention for a refused file until the clerk opens the window', () => {
    const tracker = createTrayTracker();
    tracker.result(job(3, { state: 'rejected', outcome: 'rejected', finished: true }));
    expect(tracker.model()).toMatchObject({ status: 'attention', summary: 'Needs attention: 1 file refused' });
    tracker.acknowledge();
    expect(tracker.model().status).toBe('idle');
  });

  it('needs attention while an upload waits to retry after a failure, or the folder is missing', () => {
    const tracker = createTrayTracker();
    tracker.job(job(4, { state: 'waiting', lastError: 'connection refused' }));
    expect(tracker.model().summary).toBe('Needs attention: 1 upload waiting to retry');
    tracker.acknowledge();
    expect(tracker.model().status).toBe('attention');
    tracker.job(job(4, { state: 'uploading' }));
    tracker.folder({ state: 'missing', folder: '/in' });
    expect(tracker.model().summary).toBe('Needs attention: the watched folder is missing');
    tracker.notice({ level: 'error', message: 'The engine stopped' });
    tracker.notice({ level: 'info', message: 'fine' });
    expect(tracker.model().summary).toBe('Needs attention: the watched folder is missing, 1 error');
  });

  it('needs attention while the watched folder cannot be read, and offers to pause the watch that waits for it', () => {
    const tracker = createTrayTracker();
    tracker.folder({ state: 'unreadable', folder: '/in' });
    const model = tracker.model();
    expect(model.summary).toBe('Needs attention: the watched folder cannot be read');
    const calls: unknown[] = [];
    const items = trayMenuTemplate(model, undefined, { open: () => undefined, watch: (m) => calls.push(m), setStartAtLogin: () => undefined, quit: () => undefined });
    (items.find((i) => i.label === 'Pause watching')?.click as (() => void) | undefined)?.();
    expect(calls).toEqual(['watch.pause']);
  });
});

describe('tray menu', () => {
  const actions = (): TrayActions & { calls: unknown[] } => {
    const calls: unknown[] = [];
    return { calls, open: () => calls.push('open'), watch: (m) => calls.push(m), setStartAtLogin: (on) => calls.push(on), quit: () => calls.push('quit') };
  };
  const model = (state: TrayModel['folder']['state'], folder?: string): TrayModel => ({
    status: 'idle', summary: 'Idle', active: 0, folder: folder ? { state, folder } : { state },
  });
  const click = (items: ReturnType<typeof trayMenuTemplate>, label: string, checked = false) => {
    const item = items.find((i) => i.label === label);
    if (!item?.click) throw new Error(`no clickable ${label}`);
    (item.click as (i: { checked: boolean }) => void)({ checked });
  };

  it('offers open, pause or resume by state, start at login where supported, and quit', () => {
    const a = actions();
    const watching = trayMenuTemplate(model('watching', '/in'), false, a);
    expect(watching.map((i) => i.label ?? i.type)).toEqual(['Idle', '/in', 'separator', 'Open Payroll Uploader', 'Pause watching', 'Start at login', 'separator', 'Quit']);
    click(watching, 'Pause watching');
    click(trayMenuTemplate(model('paused', '/in'), false, a), 'Resume watching');
    click(trayMenuTemplate(model('stopped', '/in'), false, a), 'Start watching');
    click(watching, 'Start at login', true);
    click(watching, 'Open Payroll Uploader');
    click(watching, 'Quit');
    expect(a.calls).toEqual(['watch.pause', 'watch.resume', 'watch.start', true, 'open', 'quit']);
  });

  it('leaves out start at login where the platform has none, and says what to do without a folder', () => {
    const items = trayMenuTemplate(model('stopped'), undefined, actions());
    expect(items.map((i) => i.label)).not.toContain('Start at login');
    expect(items.find((i) => i.label === 'Choose a folder to watch in the app')?.enabled).toBe(false);
  });
});

describe('the tray icon files', () => {
  it('exist for every state', async () => {
    const { existsSync } = await import('node:fs');
    const path = await import('node:path');
    const { trayIconPath } = await import('./app-tray');
    const dir = path.resolve(import.meta.dirname, '../../../resources/icons');
    for (const status of ['idle', 'uploading', 'attention'] as const) expect(existsSync(trayIconPath(dir, status))).toBe(true);
  });
});
