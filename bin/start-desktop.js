#!/usr/bin/env node
// `npm start`: opens the desktop app when the Electron binary is installed, and otherwise says what to do.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

let binary;
try {
  binary = require('electron'); // the package's main export is the path of the binary it downloaded
} catch {
  binary = undefined;
}

if (typeof binary !== 'string' || !existsSync(binary)) {
  process.stderr.write(`Payroll Uploader: the Electron binary is not installed, so the desktop window cannot open.

To install it, on a machine that can reach Electron's download host:
  rm -rf node_modules/electron && npm install     (without ELECTRON_SKIP_BINARY_DOWNLOAD set)

Everything else works without it:
  npm run server -- --port 8787                   the local stand-in of the service
  npm run cli -- --help                           the headless payroll-uploader command (watch, send, ...)
`);
  process.exit(1);
}

const child = spawn(binary, [join(root, 'electron/main/launch.cjs')], { stdio: 'inherit', cwd: root });
child.on('exit', (code) => process.exit(code ?? 1));
