/**
 * A stand-in for the `electron` module (the binary cannot run here): records what the shell asks of Electron so a
 * test can check each item of the security checklist. utilityProcess.fork runs the real engine in a Node child.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';

type Handler = (...args: never[]) => unknown;

export class FakeWebContents extends EventEmitter {
  url = '';
  destroyed = false;
  sent: Array<{ channel: string; message: unknown }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, message: unknown): void {
    this.sent.push({ channel, message });
  }
  getURL(): string {
    return this.url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  visible = false;
  loaded: string | undefined;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.created.push(this);
    electronStandIn.app.emit('web-contents-created', {}, this.webContents);
  }
  static fromWebContents(contents: unknown): FakeBrowserWindow | null {
    return FakeBrowserWindow.created.find((w) => w.webContents === contents) ?? null;
  }
  loadURL(url: string): Promise<void> {
    this.loaded = url;
    this.webContents.url = url;
    setImmediate(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  show(): void {
    this.visible = true;
    this.emit('show');
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {}
  restore(): void {}
  isMinimized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return false;
  }
}

export class FakeTray extends EventEmitter {
  static created: FakeTray[] = [];
  tooltip = '';
  image: unknown;
  menu: Array<Record<string, unknown>> = [];
  constructor(image: unknown) {
    super();
    this.image = image;
    FakeTray.created.push(this);
  }
  setImage(image: unknown): void {
    this.image = image;
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: { items: Array<Record<string, unknown>> }): void {
    this.menu = menu.items;
  }
  destroy(): void {}
}

export class FakeNotification extends EventEmitter {
  static shown: Array<{ title: string; body: string }> = [];
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  static isSupported(): boolean {
    return true;
  }
  show(): void {
    FakeNotification.shown.push({ title: this.options.title, body: this.options.body });
  }
}

class FakeSession {
  permissionRequestHandler: Handler | undefined;
  permissionCheckHandler: Handler | undefined;
  devicePermissionHandler: Handler | undefined;
  displayMediaHandler: Handler | undefined;
  beforeRequest: Handler | undefined;
  headersReceived: Handler | undefined;
  setPermissionRequestHandler(handler: Handler): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Handler): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: Handler): void {
    this.devicePermissionHandler = handler;
  }
  setDisplayMediaRequestHandler(handler: Handler): void {
    this.displayMediaHandler = handler;
  }
  webRequest = {
    onBeforeRequest: (handler: Handler) => {
      this.beforeRequest = handler;
    },
    onHeadersReceived: (handler: Handler) => {
      this.headersReceived = handler;
    },
  };
}

/** Forks a Node module as Electron's utilityProcess would start it; the module sees process.send instead of parentPort. */
function forkUtility(modulePath: string, args: string[]) {
  const child: ChildProcess = fork(modulePath, args, {
    execArgv: modulePath.endsWith('.ts') ? ['--import', 'tsx'] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...electronStandIn.engineEnv },
  });
  electronStandIn.utilityChildren.push(child);
  const emitter = new EventEmitter();
  child.on('message', (message) => emitter.emit('message', message));
  child.on('exit', (code) => emitter.emit('exit', code));
  return Object.assign(emitter, {
    postMessage: (message: unknown) => {
      if (child.connected) child.send(message as never);
    },
    kill: () => child.kill(),
    pid: child.pid,
  });
}

export const electronStandIn = {
  engineEnv: {} as Record<string, string>,
  utilityChildren: [] as ChildProcess[],
  /** What fork gets instead of the built engine (the TypeScript entry, run through tsx). */
  engineOverride: undefined as string | undefined,
  app: Object.assign(new EventEmitter(), {
    isPackaged: false,
    lockHeld: true,
    loginItem: { openAtLogin: false },
    loginItemCalls: [] as unknown[],
    sandboxEnabled: false,
    requestSingleInstanceLock(): boolean {
      return electronStandIn.app.lockHeld;
    },
    enableSandbox(): void {
      electronStandIn.app.sandboxEnabled = true;
    },
    getLoginItemSettings() {
      return electronStandIn.app.loginItem;
    },
    setLoginItemSettings(settings: { openAtLogin: boolean }) {
      electronStandIn.app.loginItemCalls.push(settings);
      electronStandIn.app.loginItem = { openAtLogin: settings.openAtLogin };
    },
    getAppPath: () => process.cwd(),
    getPath: () => process.cwd(),
    getVersion: () => '0.0.0-test',
    quit: () => undefined,
    whenReady: () => Promise.resolve(),
  }),
  session: { defaultSession: new FakeSession() },
  protocol: {
    privileged: [] as unknown[],
    handlers: new Map<string, (request: { url: string; method: string }) => Promise<Response>>(),
    registerSchemesAsPrivileged(schemes: unknown[]) {
      electronStandIn.protocol.privileged.push(...schemes);
    },
    handle(scheme: string, handler: (request: { url: string; method: string }) => Promise<Response>) {
      electronStandIn.protocol.handlers.set(scheme, handler);
    },
  },
  ipcMain: {
    handlers: new Map<string, (...args: unknown[]) => unknown>(),
    handle(channel: string, handler: (...args: unknown[]) => unknown) {
      if (electronStandIn.ipcMain.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      electronStandIn.ipcMain.handlers.set(channel, handler);
    },
    removeHandler(channel: string) {
      electronStandIn.ipcMain.handlers.delete(channel);
    },
    // electron-store listens here for its renderer helper.
    on: () => undefined,
  },
  shell: {
    opened: [] as string[],
    revealed: [] as string[],
    openExternal(url: string) {
      electronStandIn.shell.opened.push(url);
      return Promise.resolve();
    },
    showItemInFolder(path: string) {
      electronStandIn.shell.revealed.push(path);
    },
    openPath: () => Promise.resolve(''),
  },
  dialog: {
    answer: { canceled: false, filePaths: ['/srv/exports'] } as { canceled: boolean; filePaths: string[] },
    showOpenDialog: (..._args: unknown[]) => Promise.resolve(electronStandIn.dialog.answer),
  },
  utilityProcess: {
    fork(modulePath: string, args: string[] = []) {
      return forkUtility(electronStandIn.engineOverride ?? modulePath, args);
    },
  },
  Menu: { buildFromTemplate: (items: Array<Record<string, unknown>>) => ({ items }) },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
  BrowserWindow: FakeBrowserWindow,
  Tray: FakeTray,
  Notification: FakeNotification,
  contextBridge: {
    exposed: new Map<string, unknown>(),
    exposeInMainWorld(key: string, api: unknown) {
      electronStandIn.contextBridge.exposed.set(key, api);
    },
  },
  ipcRenderer: Object.assign(new EventEmitter(), {
    invoked: [] as unknown[][],
    invoke(...args: unknown[]) {
      electronStandIn.ipcRenderer.invoked.push(args);
      return Promise.resolve({ ok: true, result: { folder: null } });
    },
  }),
};
