/**
 * Electron's security checklist, item by item, on the real shell modules loaded with a stand-in for the electron
 * module: main.ts starts as in the app (the engine runs as a real Node child process), and each guard is exercised.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BRIDGE_IPC } from '../../shared/bridge';
import { CONTENT_SECURITY_POLICY } from '../../electron/main/security/content-security-policy';
import { electronStandIn, FakeBrowserWindow, FakeNotification, FakeTray, type FakeWebContents } from './electron-stand-in';

vi.mock('electron', async () => {
  const { electronStandIn: standIn } = await import('./electron-stand-in');
  return { ...standIn, default: standIn };
});

const root = path.resolve(import.meta.dirname, '../..');
let dataDir: string;
let window: FakeBrowserWindow;
type Reply = { ok: boolean; result?: unknown; error?: { code: string; message: string; fields?: Array<{ path: string }> } };
let call: (event: unknown, method: unknown, request?: unknown) => Promise<Reply>;

const frame = (url: string, parent: unknown = null) => ({ url, parent });
const eventFrom = (senderFrame: unknown) => ({ senderFrame, sender: window.webContents });
const fromApp = () => eventFrom(frame('app://payroll/index.html'));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'shell-checklist-'));
  process.env.PAYROLL_DATA_DIR = dataDir;
  process.env.PAYROLL_LOG_LEVEL = 'silent';
  electronStandIn.engineEnv = { PAYROLL_DATA_DIR: dataDir, PAYROLL_LOG_LEVEL: 'silent' };
  electronStandIn.engineOverride = path.join(root, 'electron/engine/engine-main.ts');
  await import('../../electron/main/main');
  await vi.waitFor(() => expect(FakeBrowserWindow.created).toHaveLength(1));
  window = FakeBrowserWindow.created[0] as FakeBrowserWindow;
  const handler = electronStandIn.ipcMain.handlers.get(BRIDGE_IPC.call);
  if (!handler) throw new Error('no IPC handler was registered');
  call = (event, method, request) => handler(event, method, request) as Promise<Reply>;
});

afterAll(async () => {
  electronStandIn.app.emit('before-quit', { preventDefault: () => undefined });
  await vi.waitFor(() => expect(electronStandIn.utilityChildren.every((c) => c.exitCode !== null || c.signalCode !== null)).toBe(true), { timeout: 20_000 });
  await rm(dataDir, { recursive: true, force: true });
});

describe('before the app is ready', () => {
  it('sandboxes every renderer and registers app:// as a standard, secure scheme', () => {
    expect(electronStandIn.app.sandboxEnabled).toBe(true);
    expect(electronStandIn.protocol.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
  });
});

describe('the window (items 2, 3, 4, 6, 8, 9, 10, 18)', () => {
  it('has Node off, context isolation and the sandbox on, web security kept, no insecure content or experiments', () => {
    const prefs = window.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false, webSecurity: true, allowRunningInsecureContent: false,
      experimentalFeatures: false, webviewTag: false, navigateOnDragDrop: false,
    });
    expect(prefs.enableBlinkFeatures).toBeUndefined();
    expect(prefs.preload).toBe(path.join(root, 'dist/preload/preload.cjs'));
    expect(prefs.devTools).toBe(true);
  });

  it('loads the app from app://payroll, not file://', () => {
    expect(window.loaded).toBe('app://payroll/index.html');
  });
});

describe('Content-Security-Policy (item 7)', () => {
  it('allows scripts only from the app, nothing inline or evaluated, no plugins, frames, forms or base changes', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    for (const name of ['object-src', 'base-uri', 'form-action', 'frame-src', 'frame-ancestors']) expect(directives.get(name)).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|\*|https?:/);
  });

  it('is sent with every page of app:// and added to any other response', async () => {
    const handler = electronStandIn.protocol.handlers.get('app');
    if (!handler) throw new Error('app:// has no handler');
    const missing = await handler({ url: 'app://payroll/no-such-file.js', method: 'GET' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    let headers: Record<string, string[]> = {};
    electronStandIn.session.defaultSession.headersReceived?.(
      { responseHeaders: { 'content-type': ['text/html'] } } as never,
      ((answer: { responseHeaders: Record<string, string[]> }) => {
        headers = answer.responseHeaders;
      }) as never,
    );
    expect(headers['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
  });
});

describe('session (items 1 and 5)', () => {
  const session = () => electronStandIn.session.defaultSession;
  /** The answers of the request and the check handler for a page at `url`, as Electron calls them. */
  const answers = (permission: string, url: string, isMainFrame = true) => {
    let requested: boolean | undefined;
    session().permissionRequestHandler?.({} as never, permission as never, ((answer: boolean) => {
      requested = answer;
    }) as never, { isMainFrame, requestingUrl: url } as never);
    const checked = session().permissionCheckHandler?.({} as never, permission as never, new URL(url).origin as never, { isMainFrame, requestingUrl: url } as never);
    return { requested, checked };
  };
  const denied = { requested: false, checked: false };

  it('denies every permission request and every permission check but the app page\'s clipboard writes', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fileSystem', 'unknown']) {
      expect(answers(permission, 'app://payroll/index.html'), permission).toEqual(denied);
    }
    expect(session().devicePermissionHandler?.({} as never)).toBe(false);
  });

  it('lets only the app\'s own main frame write to the clipboard (its Copy buttons)', () => {
    expect(answers('clipboard-sanitized-write', 'app://payroll/index.html')).toEqual({ requested: true, checked: true });
    expect(answers('clipboard-sanitized-write', 'app://payroll/index.html', false)).toEqual(denied);
    for (const url of ['https://evil.example.com/', 'http://127.0.0.1:8787/', 'app://other/index.html', 'file:///etc/passwd', 'data:text/html,x']) {
      expect(answers('clipboard-sanitized-write', url), url).toEqual(denied);
    }
    // A check without the frame's address (a cross-origin frame) is judged by its origin.
    expect(session().permissionCheckHandler?.({} as never, 'clipboard-sanitized-write' as never, 'app://payroll' as never, { isMainFrame: true } as never)).toBe(true);
    expect(session().permissionCheckHandler?.({} as never, 'clipboard-sanitized-write' as never, 'https://evil.example.com' as never, { isMainFrame: true } as never)).toBe(false);
  });

  it('loads nothing from the network: only app://, data: images and devtools', () => {
    const verdict = (url: string) => {
      let cancel: boolean | undefined;
      electronStandIn.session.defaultSession.beforeRequest?.({ url } as never, ((answer: { cancel: boolean }) => {
        cancel = answer.cancel;
      }) as never);
      return cancel;
    };
    expect(verdict('app://payroll/assets/index.js')).toBe(false);
    expect(verdict('data:image/png;base64,AAAA')).toBe(false);
    expect(verdict('devtools://devtools/bundled/devtools_app.html')).toBe(false);
    // The app loads no extensions: a chrome-extension: request could only come from something planted.
    for (const url of ['https://evil.example.com/x.js', 'http://127.0.0.1:8787/', 'file:///etc/passwd', 'ws://127.0.0.1:1/', 'chrome-extension://abcdefghijklmnop/x.js']) {
      expect(verdict(url), url).toBe(true);
    }
  });
});

describe('navigation and new windows (items 11-15)', () => {
  const contents = (): FakeWebContents => window.webContents;
  const prevented = (eventName: string, url?: string) => {
    const event = { preventDefault: vi.fn(), url: url ?? '' };
    contents().emit(eventName, event, url);
    return event.preventDefault.mock.calls.length > 0;
  };

  it('refuses navigation, frame navigation, redirects and webviews', () => {
    expect(prevented('will-navigate', 'https://evil.example.com/')).toBe(true);
    expect(prevented('will-navigate', 'app://payroll/other.html')).toBe(true);
    expect(prevented('will-frame-navigate', 'https://evil.example.com/')).toBe(true);
    expect(prevented('will-redirect', 'https://evil.example.com/')).toBe(true);
    expect(prevented('will-attach-webview')).toBe(true);
  });

  it('opens no window; only a vetted https link goes to the OS browser', async () => {
    electronStandIn.shell.opened.length = 0;
    for (const url of ['https://docs.payroll.example.com/help', 'file:///etc/passwd', 'javascript:alert(1)', 'http://example.com/',
      'https://user:pw@example.com/', 'https://127.0.0.1/', 'smb://server/share', 'https://exa mple.com/']) {
      expect(contents().windowOpenHandler?.({ url })).toEqual({ action: 'deny' });
    }
    await vi.waitFor(() => expect(electronStandIn.shell.opened).toEqual(['https://docs.payroll.example.com/help']));
  });
});

describe('IPC (items 17 and 20)', () => {
  it('refuses a message from another origin, a subframe or a frame that is gone, without an answer', async () => {
    await expect(call(eventFrom(frame('https://evil.example.com/')), 'settings.get', {})).rejects.toThrow('refused');
    await expect(call(eventFrom(frame('file:///tmp/index.html')), 'settings.get', {})).rejects.toThrow('refused');
    await expect(call(eventFrom(frame('app://payroll.evil/index.html')), 'settings.get', {})).rejects.toThrow('refused');
    await expect(call(eventFrom(frame('app://payroll/index.html', { url: 'app://payroll/' })), 'settings.get', {})).rejects.toThrow('refused');
    await expect(call(eventFrom(null), 'settings.get', {})).rejects.toThrow('refused');
  });

  it('answers an unknown method, and a request that breaks its schema with the field', async () => {
    expect(await call(fromApp(), 'fs.readFile', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    expect(await call(fromApp(), '__proto__', {})).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    const bad = await call(fromApp(), 'jobs.get', { id: 'seven' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(bad.error?.fields?.map((f) => f.path)).toEqual(['id']);
    const extra = await call(fromApp(), 'watch.start', { folder: '/tmp' });
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('relays a valid call to the engine process, which answers from the session service', async () => {
    expect(await call(fromApp(), 'settings.get', {})).toMatchObject({ ok: true, result: { file: path.join(dataDir, 'settings.json') } });
    const folder = path.join(dataDir, 'exports');
    expect(await call(fromApp(), 'watch.setFolder', { folder })).toMatchObject({ ok: true, result: { folder } });
    expect(await call(fromApp(), 'settings.get', {})).toMatchObject({ ok: true, result: { settings: { watchedFolder: folder } } });
    // jobs.reveal is main's, but which file to show is the engine's answer: an unknown job is the engine's not_found.
    expect(await call(fromApp(), 'jobs.reveal', { id: 424242 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(electronStandIn.utilityChildren).toHaveLength(1);
  });

  it("sends the engine's events to the window on payroll:event, and the tray follows them", async () => {
    const folder = path.join(dataDir, 'exports');
    await mkdir(folder, { recursive: true });
    expect(await call(fromApp(), 'watch.start', {})).toMatchObject({ ok: true, result: { state: 'watching', folder } });
    await vi.waitFor(() => expect(window.webContents.sent).toContainEqual({ channel: BRIDGE_IPC.event, message: { event: 'folder', payload: { state: 'watching', folder } } }), { timeout: 20_000 });
    await vi.waitFor(() => expect(FakeTray.created[0]?.menu.map((item) => item.label)).toContain('Pause watching'));

    // A file the payroll system got wrong: refused before any upload, and the clerk is told by the OS.
    await writeFile(path.join(folder, 'census-broken.csv'), 'this is not,the census header\n1,2\n');
    await vi.waitFor(() => expect(FakeNotification.shown).toContainEqual({ title: 'File refused', body: expect.stringMatching(/^census-broken\.csv: /) as string }), { timeout: 40_000 });
    type Sent = { event: string; payload: { id: number; outcome?: string } };
    const refused = window.webContents.sent.map(({ message }) => message as Sent).find((m) => m.event === 'result' && m.payload.outcome === 'rejected');
    expect(refused).toBeDefined();
    // Reveal: the engine says where the file went (rejected/), main shows it in the file manager.
    const revealed = await call(fromApp(), 'jobs.reveal', { id: refused?.payload.id });
    expect(revealed).toMatchObject({ ok: true, result: { revealed: true } });
    const shownPath = (revealed.result as { path: string }).path;
    expect(shownPath).toMatch(/rejected[\\/].*census-broken\.csv$/);
    expect(electronStandIn.shell.revealed).toEqual([shownPath]);
    expect(FakeTray.created[0]?.tooltip).toMatch(/Needs attention: 1 file refused/);
    // Opening the window is the clerk having looked.
    window.show();
    expect(FakeTray.created[0]?.tooltip).not.toMatch(/refused/);

    await rm(folder, { recursive: true });
    await vi.waitFor(() => expect(FakeTray.created[0]?.tooltip).toMatch(/Needs attention: the watched folder is missing/), { timeout: 30_000 });
  });

  it('answers watch.browse in main with the native folder dialog', async () => {
    electronStandIn.dialog.answer = { canceled: false, filePaths: ['/srv/exports'] };
    expect(await call(fromApp(), 'watch.browse', {})).toEqual({ ok: true, result: { folder: '/srv/exports' } });
    electronStandIn.dialog.answer = { canceled: true, filePaths: [] };
    expect(await call(fromApp(), 'watch.browse', {})).toEqual({ ok: true, result: { folder: null } });
  });
});

describe('tray and lifecycle', () => {
  it('shows a tray with open, watching and quit', () => {
    const tray = FakeTray.created[0];
    expect(tray?.tooltip).toMatch(/^Payroll Uploader: /);
    const labels = tray?.menu.map((item) => item.label);
    expect(labels).toContain('Open Payroll Uploader');
    expect(labels).toContain('Quit');
  });

  it('closing the window hides it and keeps the app running', () => {
    window.visible = true;
    const event = { preventDefault: vi.fn() };
    window.emit('close', event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(window.visible).toBe(false);
  });

  it('a second launch shows the first window', () => {
    electronStandIn.app.emit('second-instance');
    expect(window.visible).toBe(true);
    expect(FakeBrowserWindow.created).toHaveLength(1);
  });
});
