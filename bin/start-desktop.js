#!/usr/bin/env node
// `npm start`: the desktop window where the Electron binary is installed; otherwise one line saying so, then
// browser mode (`payroll-uploader ui`), whose sign-in address is printed and opened in the default browser when there is one.
// Arguments after `npm start --` go to the ui command (e.g. --port 8080 --local-server).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function electronBinary() {
  try {
    const binary = require('electron'); // the package's main export is the path of the binary it downloaded
    return typeof binary === 'string' && existsSync(binary) ? binary : undefined;
  } catch {
    return undefined; // "Electron failed to install correctly": the download was skipped or failed
  }
}

function run(script) {
  const result = spawnSync(npm, ['run', '--silent', script], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' });
  if (result.status !== 0) {
    process.stderr.write(`Payroll Uploader: \`npm run ${script}\` failed (exit ${result.status ?? result.signal}); see above.\n`);
    process.exit(1);
  }
}

let signInPages;
let signInPageCount = 0;

/**
 * An owner-only HTML page that sends the browser on to the sign-in address, in a folder only this user can enter,
 * removed when we exit. The browser is given this page's path, not the address: any local user can read a process's
 * arguments (ps, /proc/<pid>/cmdline) while the opener runs, and the address's code signs a browser in.
 */
function signInPage(url) {
  if (!signInPages) {
    signInPages = mkdtempSync(join(tmpdir(), 'payroll-uploader-'));
    process.on('exit', () => rmSync(signInPages, { recursive: true, force: true }));
  }
  signInPageCount += 1;
  const file = join(signInPages, `sign-in-${signInPageCount}.html`);
  const href = url.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  writeFileSync(file, '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="refresh" content="0; url='${href}'"><title>Payroll Uploader</title></head>` +
    `<body><p><a href="${href}">Open Payroll Uploader</a></p></body></html>\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

/** The default browser, where a desktop exists to show it; failures are ignored (the address is printed anyway). */
function openBrowser(url) {
  if (process.env.PAYROLL_NO_BROWSER || process.env.CI) return;
  const desktop = process.platform === 'darwin' || process.platform === 'win32' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY;
  if (!desktop) return;
  let file;
  try {
    file = signInPage(url);
  } catch {
    return; // no page to open: the printed address is enough
  }
  let command;
  let commandArgs;
  if (process.platform === 'darwin') [command, commandArgs] = ['open', [file]];
  // Quoted for cmd, which would otherwise split a path with spaces; a temporary folder's path holds no quote.
  else if (process.platform === 'win32') [command, commandArgs] = ['cmd', ['/c', 'start', '""', `"${file}"`]];
  else [command, commandArgs] = ['xdg-open', [file]];
  try {
    const child = spawn(command, commandArgs, { stdio: 'ignore', detached: true, windowsVerbatimArguments: process.platform === 'win32' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no browser: the printed address is enough
  }
}

/** What the built screens are made from: a change to any of it since the last build means building them again. */
const SCREEN_SOURCES = ['renderer', 'shared', 'vite.config.ts', 'package-lock.json'];

/** The newest modification time under `path` (a file, or a folder walked whole). */
function newestMtime(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** The screens were never built, or their sources changed since (a pull, an edit): served as they are, they would be old. */
function screensOutOfDate() {
  const built = statSync(join(root, 'dist', 'renderer', 'index.html'), { throwIfNoEntry: false });
  return !built || SCREEN_SOURCES.some((source) => newestMtime(join(root, source)) > built.mtimeMs);
}

function startDesktop(binary) {
  run('build');
  const child = spawn(binary, [root, ...args], { stdio: 'inherit', cwd: root });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function startBrowserMode() {
  process.stderr.write('Payroll Uploader: the Electron binary is not installed, so no desktop window; starting browser mode instead.\n');
  if (screensOutOfDate()) run('build:renderer');
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'electron', 'cli', 'main.ts'), 'ui', ...args], {
    cwd: root,
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    buffered += chunk;
    // Whole lines only (a chunk can end inside an address); a new one comes each time Enter is pressed.
    for (let match; (match = /^ui at (http:\/\/\S+)\n/m.exec(buffered));) {
      buffered = buffered.slice(match.index + match[0].length);
      openBrowser(match[1]);
    }
    if (buffered.length > 4096) buffered = buffered.slice(-4096);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)));
}

const binary = electronBinary();
if (binary) startDesktop(binary);
else startBrowserMode();
