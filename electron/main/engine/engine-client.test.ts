/** main's engine client against the real engine entry in a real Node child process (as utilityProcess runs it). */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngineClient, type EngineProcess } from './engine-client';
import { superviseEngine } from './engine-supervisor';

const entry = path.resolve(import.meta.dirname, '../../engine/engine-main.ts');
let dataDir: string;
const children: ChildProcess[] = [];

function spawnNodeEngine(dir = dataDir): EngineProcess {
  const child = fork(entry, ['--data-dir', dir], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, PAYROLL_DATA_DIR: dir, PAYROLL_LOG_LEVEL: 'silent' },
  });
  children.push(child);
  return {
    postMessage: (message) => {
      if (child.connected) child.send(message);
    },
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.on('exit', (code) => listener(code)),
    kill: () => void child.kill('SIGKILL'),
  };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'engine-client-'));
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('createEngineClient with the real engine process', () => {
  it('gets ready, answers a call with an envelope reply, and stops the process cleanly', async () => {
    const engine = createEngineClient(spawnNodeEngine());
    await engine.ready;
    expect(await engine.call('watch.state', {})).toEqual({ ok: true, result: { state: 'stopped' } });
    expect(await engine.call('jobs.get', { id: 1 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    await engine.stop();
    expect(engine.running).toBe(false);
    expect(children.at(-1)?.exitCode).toBe(0);
    expect(await engine.call('watch.state', {})).toMatchObject({ ok: false, error: { code: 'internal', message: 'The app is closing.' } });
  });

  it('a killed engine is reported and started again by the supervisor', async () => {
    const trouble: string[] = [];
    const ready = vi.fn();
    const supervisor = superviseEngine({ spawn: spawnNodeEngine, onTrouble: (message) => trouble.push(message), onReady: ready });
    await vi.waitFor(() => expect(ready).toHaveBeenCalledTimes(1), { timeout: 30_000 });
    const first = children.at(-1);
    first?.kill('SIGKILL');
    await vi.waitFor(() => expect(trouble).toHaveLength(1), { timeout: 30_000 });
    expect(trouble[0]).toMatch(/engine stopped .* started again/);
    await vi.waitFor(() => expect(ready).toHaveBeenCalledTimes(2), { timeout: 30_000 });
    expect(children.at(-1)).not.toBe(first);
    expect(await supervisor.call('watch.state', {})).toEqual({ ok: true, result: { state: 'stopped' } });
    await supervisor.stop();
  });

  it('says why an engine could not start (a broken settings file), to calls and to the supervisor', async () => {
    const broken = await mkdtemp(path.join(os.tmpdir(), 'engine-broken-'));
    try {
      await writeFile(path.join(broken, 'settings.json'), '{"concurrency": ');
      const engine = createEngineClient(spawnNodeEngine(broken));
      const crashed = new Promise<string | undefined>((resolve) => engine.onCrash((_code, reason) => resolve(reason)));
      await expect(engine.ready).rejects.toThrow(/settings file .*settings\.json is invalid/);
      const reply = await engine.call('settings.get', {});
      expect(reply.ok ? '' : reply.error.message).toMatch(/^The app's engine could not start: The settings file /);
      expect(await crashed).toMatch(/not valid JSON/);
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });

  it('fails a pending call with an envelope when the engine dies mid-call', async () => {
    let exit: (code: number | null) => void = () => undefined;
    let deliver: (message: unknown) => void = () => undefined;
    const posted: unknown[] = [];
    const client = createEngineClient({
      postMessage: (message) => void posted.push(message),
      onMessage: (listener) => {
        deliver = listener;
      },
      onExit: (listener) => {
        exit = listener;
      },
      kill: () => undefined,
    });
    const crashed = vi.fn();
    client.onCrash(crashed);
    deliver({ type: 'ready' });
    const pending = client.call('jobs.query', {});
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    exit(139);
    const reply = await pending;
    expect(reply).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(reply.ok ? '' : reply.error.message).toMatch(/stopped unexpectedly/);
    expect(crashed).toHaveBeenCalledWith(139, undefined);
  });

  it('gives up after too many crashes in a row instead of looping', () => {
    const exits: Array<(code: number | null) => void> = [];
    const trouble: Array<[string, boolean]> = [];
    let now = 0;
    const fake = (): EngineProcess => ({
      postMessage: () => undefined,
      onMessage: () => undefined,
      onExit: (listener) => void exits.push(listener),
      kill: () => undefined,
    });
    superviseEngine({ spawn: fake, maxRestarts: 2, windowMs: 1000, now: () => now, onTrouble: (m, gaveUp) => trouble.push([m, gaveUp]) });
    for (let i = 0; i < 3; i++) {
      now += 10;
      exits.at(-1)?.(1);
    }
    expect(exits).toHaveLength(3);
    expect(trouble.map(([, gaveUp]) => gaveUp)).toEqual([false, false, true]);
  });
});
