/**
 * Runs the built dist/main/main.js as Electron would, with the stand-in answering `import 'electron'` (for main and
 * for electron-store): the engine it starts is the built dist/engine/engine.js. Prints one JSON line of what it saw.
 * Run with `node --import tsx test/shell/built-main/run-built-main.ts` from the repository root.
 */
import { existsSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '../../..');
const standIn = pathToFileURL(path.join(import.meta.dirname, 'electron-module.ts')).href;
const hook = `export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return next(${JSON.stringify(standIn)}, context);
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const { electronStandIn, FakeBrowserWindow, FakeTray } = await import('../electron-stand-in');
await import(pathToFileURL(path.join(root, 'dist/main/main.js')).href);

const until = async (ok: () => boolean, what: string): Promise<void> => {
  const started = Date.now();
  while (!ok()) {
    if (Date.now() - started > 60_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
await until(() => FakeBrowserWindow.created.length === 1, 'the window');
const window = FakeBrowserWindow.created[0];
const handler = electronStandIn.ipcMain.handlers.get('payroll:call');
if (!window || !handler) throw new Error('no window or no IPC handler');
const fromApp = { senderFrame: { url: 'app://payroll/index.html', parent: null }, sender: window.webContents };
const settings: unknown = await handler(fromApp, 'settings.get', {});
const refused: unknown = await Promise.resolve(handler({ ...fromApp, senderFrame: { url: 'https://evil.example.com/', parent: null } }, 'settings.get', {})).then(
  () => 'answered', (error: Error) => error.message);
await until(() => (FakeTray.created[0]?.tooltip ?? '') !== '', 'the tray');

// The tray's Start at login, on and off: on Linux an autostart entry in XDG_CONFIG_HOME comes and goes.
type MenuItem = { label?: string; checked?: boolean; click?: (item: { checked: boolean }) => void };
const loginItem = () => FakeTray.created[0]?.menu.find((item) => item.label === 'Start at login') as MenuItem | undefined;
const entryPath = path.join(process.env.XDG_CONFIG_HOME ?? '/nonexistent', 'autostart', 'payroll-uploader.desktop');
const loginOffAtStart = loginItem()?.checked === false && !existsSync(entryPath);
loginItem()?.click?.({ checked: true });
const loginExec = existsSync(entryPath) ? readFileSync(entryPath, 'utf8').split('\n').find((line) => line.startsWith('Exec=')) : undefined;
const loginCheckedAfter = loginItem()?.checked;
loginItem()?.click?.({ checked: false });
const loginEntryRemoved = !existsSync(entryPath);
// The Settings screen's switch: the engine saves settings.json, the shell hears it and writes the entry.
await handler(fromApp, 'settings.patch', { startAtLogin: true });
await until(() => existsSync(entryPath), 'the autostart entry after the settings changed');
await until(() => loginItem()?.checked === true, 'the tray to show start at login');
await handler(fromApp, 'settings.patch', { startAtLogin: false });
await until(() => !existsSync(entryPath), 'the autostart entry to go after the settings changed');
const loginFromSettings = loginItem()?.checked === false;

const engine = electronStandIn.utilityChildren[0];
electronStandIn.app.emit('before-quit', { preventDefault: () => undefined });
await until(() => engine?.exitCode !== null && engine?.exitCode !== undefined, 'the engine to stop');

process.stdout.write(`${JSON.stringify({
  sandbox: electronStandIn.app.sandboxEnabled,
  privileged: electronStandIn.protocol.privileged,
  loaded: window.loaded,
  webPreferences: window.options.webPreferences,
  settings,
  refused,
  tray: FakeTray.created[0]?.tooltip,
  login: { offAtStart: loginOffAtStart, exec: loginExec, checkedAfter: loginCheckedAfter, removed: loginEntryRemoved, fromSettings: loginFromSettings },
  engineArgs: engine?.spawnargs.slice(1),
  engineExit: engine?.exitCode,
})}\n`);
process.exit(0);
