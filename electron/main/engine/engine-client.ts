/**
 * Main's end of the engine channel: numbered calls with their replies, events, and what happens when the engine
 * process ends (every pending call fails with an envelope instead of hanging).
 */
import type { BridgeErrorEnvelope, BridgeReply, BridgeMethodName } from '../../../shared/bridge';
import { parseOutbound, type EngineInbound } from '../../engine/engine-protocol';

/** The engine process as main sees it; utilityProcess in the app, a Node child in tests. */
export type EngineProcess = {
  postMessage(message: EngineInbound): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
};

export type EngineEventListener = (event: string, payload: unknown) => void;

export type EngineClient = {
  /** Resolves when the engine said it is ready; rejects when it ended first. */
  readonly ready: Promise<void>;
  call(method: BridgeMethodName, request: unknown): Promise<BridgeReply<BridgeMethodName>>;
  onEvent(listener: EngineEventListener): () => void;
  /** Called once when the engine process ended without being asked to stop; `reason` when it could not start. */
  onCrash(listener: (code: number | null, reason?: string) => void): void;
  /** Asks the engine to close its services; kills it when it has not finished within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  readonly running: boolean;
};

const gone = (message: string): BridgeErrorEnvelope => ({ name: 'BridgeError', code: 'internal', message });

export function createEngineClient(engine: EngineProcess): EngineClient {
  const pending = new Map<number, (reply: BridgeReply<BridgeMethodName>) => void>();
  const listeners = new Set<EngineEventListener>();
  const crashListeners = new Set<(code: number | null, reason?: string) => void>();
  let fatal: string | undefined;
  let nextId = 1;
  let running = true;
  let stopRequested = false;
  let markReady!: () => void;
  let failReady!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  // A caller that never awaits `ready` must not turn an early exit into an unhandled rejection.
  ready.catch(() => undefined);
  let markExited!: () => void;
  const exited = new Promise<void>((resolve) => {
    markExited = resolve;
  });

  engine.onMessage((raw) => {
    const message = parseOutbound(raw);
    if (!message) return;
    switch (message.type) {
      case 'ready':
        markReady();
        return;
      case 'reply': {
        const settle = pending.get(message.id);
        pending.delete(message.id);
        settle?.(message.ok ? { ok: true, result: message.result as never } : { ok: false, error: message.error });
        return;
      }
      case 'event':
        for (const listener of listeners) listener(message.event, message.payload);
        return;
      case 'fatal':
        fatal = message.error.message;
        failReady(new Error(message.error.message));
        return;
      case 'stopped':
        return;
    }
  });

  engine.onExit((code) => {
    running = false;
    failReady(new Error(`the engine ended before it was ready (exit code ${String(code)})`));
    const error = gone(stopRequested ? 'The app is closing.' : "The app's engine stopped unexpectedly; it is being restarted.");
    for (const settle of pending.values()) settle({ ok: false, error });
    pending.clear();
    markExited();
    if (!stopRequested) for (const listener of crashListeners) listener(code, fatal);
  });

  return {
    ready,
    get running() {
      return running;
    },
    async call(method, request) {
      // The engine listens only once its services are open: a call posted earlier would be lost.
      try {
        await ready;
      } catch (error) {
        return { ok: false, error: gone(`The app's engine could not start: ${(error as Error).message}`) };
      }
      if (!running || stopRequested) return { ok: false, error: gone('The app is closing.') };
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        engine.postMessage({ type: 'call', id, method, request });
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onCrash(listener) {
      crashListeners.add(listener);
    },
    async stop(graceMs = 10_000) {
      if (!running) return;
      stopRequested = true;
      engine.postMessage({ type: 'stop' });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), graceMs);
      });
      const outcome = await Promise.race([exited.then(() => 'exited' as const), timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        engine.kill();
        await exited;
      }
    },
  };
}
