/**
 * `npm run build:shell` for real: the bundles a packaged app runs without a TypeScript loader. The preload is run
 * as a sandboxed preload would be (only `require('electron')` exists) and the engine bundle must not touch electron.
 */
import { execFile, fork } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildShell } from '../../scripts/build-shell';
import { createEngineClient } from '../../electron/main/engine/engine-client';

const root = path.resolve(import.meta.dirname, '../..');
const dist = (file: string) => path.join(root, 'dist', file);
const importsOf = (code: string) => [...code.matchAll(/^import\s[^;]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm)].map((m) => m[1] ?? m[2]);

beforeAll(async () => {
  await buildShell();
}, 120_000);

describe('the shell build', () => {
  it('runs the preload in a sandbox-like context where only electron can be required, and exposes window.payroll', async () => {
    const code = await readFile(dist('preload/preload.cjs'), 'utf8');
    const required: string[] = [];
    const exposed = new Map<string, { platform: string; call: (...args: unknown[]) => Promise<unknown>; on: unknown }>();
    const invoked: unknown[][] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: never) => exposed.set(key, api) },
      ipcRenderer: { on: () => undefined, invoke: (...args: unknown[]) => (invoked.push(args), Promise.resolve({ ok: true, result: { folder: null } })) },
    };
    const sandboxRequire = (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return electron;
    };
    const module = { exports: {} };
    vm.runInNewContext(code, { require: sandboxRequire, module, exports: module.exports, Promise, Map, Set, Object });
    expect(required).toEqual(['electron']);
    const api = exposed.get('payroll');
    expect(api?.platform).toBe('desktop');
    expect(await api?.call('watch.browse', {})).toEqual({ folder: null });
    expect(invoked).toEqual([['payroll:call', 'watch.browse', {}]]);
    expect(code).not.toMatch(/zod/);
  });

  it('builds main and the engine as ESM with node_modules left outside, and the engine without electron', async () => {
    const main = await readFile(dist('main/main.js'), 'utf8');
    const engine = await readFile(dist('engine/engine.js'), 'utf8');
    expect(importsOf(main)).toContain('electron');
    expect(importsOf(engine)).not.toContain('electron');
    for (const specifier of [...importsOf(main), ...importsOf(engine)]) expect(specifier).toMatch(/^(node:|electron$|electron-store$|conf$|zod$|[@a-z])/);
    for (const specifier of [...importsOf(main), ...importsOf(engine)]) expect(specifier).not.toMatch(/\.ts$|^\.|tsx/);
  });

  it('runs the built engine with plain Node (no TypeScript loader) and answers from the session service', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'built-engine-'));
    const child = fork(dist('engine/engine.js'), ['--data-dir', dataDir], {
      execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, PAYROLL_LOG_LEVEL: 'silent' },
    });
    try {
      const engine = createEngineClient({
        postMessage: (message) => void child.send(message),
        onMessage: (listener) => void child.on('message', listener),
        onExit: (listener) => void child.on('exit', listener),
        kill: () => void child.kill('SIGKILL'),
      });
      await engine.ready;
      expect(await engine.call('settings.get', {})).toMatchObject({ ok: true, result: { file: path.join(dataDir, 'settings.json') } });
      await engine.stop();
      expect(child.exitCode).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('starts the built main (the stand-in answering for electron): window, guards, IPC, tray, and the built engine', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'built-main-'));
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/shell/built-main/run-built-main.ts'], {
        // XDG_CONFIG_HOME: start at login on Linux looks there, never in this machine's own autostart folder.
        cwd: root, env: { ...process.env, PAYROLL_DATA_DIR: dataDir, XDG_CONFIG_HOME: dataDir, PAYROLL_LOG_LEVEL: 'silent' }, timeout: 90_000,
      });
      const seen = JSON.parse(stdout) as Record<string, unknown>;
      expect(seen).toMatchObject({
        sandbox: true,
        privileged: [{ scheme: 'app', privileges: { standard: true, secure: true } }],
        loaded: 'app://payroll/index.html',
        webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, preload: dist('preload/preload.cjs') },
        settings: { ok: true, result: { file: path.join(dataDir, 'settings.json') } },
        refused: 'refused',
        tray: 'Payroll Uploader: Idle (not watching)',
        login: { offAtStart: true, exec: `Exec="${process.execPath}" --hidden`, checkedAfter: true, removed: true, fromSettings: true },
        engineArgs: [dist('engine/engine.js'), '--data-dir', dataDir],
        engineExit: 0,
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('copies the icons next to the bundles', async () => {
    for (const name of ['icon-512.png', 'icon-256.png', 'tray-idle.png', 'tray-uploading.png', 'tray-attention.png']) {
      expect((await readFile(dist(`icons/${name}`))).subarray(1, 4).toString()).toBe('PNG');
    }
  });
});
