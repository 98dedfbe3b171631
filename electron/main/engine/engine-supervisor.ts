/**
 * Keeps one engine running: a crashed engine is started again (at most `maxRestarts` times within `windowMs`,
 * so a crash at start-up does not loop), listeners survive restarts, and the clerk hears about it.
 */
import type { BridgeMethodName, BridgeReply } from '../../../shared/bridge';
import { createEngineClient, type EngineClient, type EngineEventListener, type EngineProcess } from './engine-client';

export type EngineSupervisorOptions = {
  spawn(): EngineProcess;
  maxRestarts?: number;
  windowMs?: number;
  now?: () => number;
  /** A restart happened (or was given up): tell the clerk. */
  onTrouble(message: string, gaveUp: boolean): void;
  /** Each new engine is ready (the first and every restart): resume watching etc. */
  onReady?(): void;
};

export type EngineSupervisor = {
  call(method: BridgeMethodName, request: unknown): Promise<BridgeReply<BridgeMethodName>>;
  onEvent(listener: EngineEventListener): () => void;
  stop(): Promise<void>;
};

export function superviseEngine(options: EngineSupervisorOptions): EngineSupervisor {
  const maxRestarts = options.maxRestarts ?? 3;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const listeners = new Set<EngineEventListener>();
  const restarts: number[] = [];
  let stopping = false;
  let client: EngineClient;

  const start = (): void => {
    const next = createEngineClient(options.spawn());
    client = next;
    next.onEvent((event, payload) => {
      for (const listener of listeners) listener(event, payload);
    });
    next.ready.then(() => options.onReady?.(), () => undefined);
    next.onCrash((code, reason) => {
      if (stopping) return;
      const what = reason ? `The app's engine could not start: ${reason}` : `The app's engine stopped (exit code ${String(code)})`;
      const at = now();
      while (restarts.length > 0 && (restarts[0] ?? 0) <= at - windowMs) restarts.shift();
      if (restarts.length >= maxRestarts) {
        options.onTrouble(`${what}. It keeps failing; fix that and restart the app.`, true);
        return;
      }
      restarts.push(at);
      options.onTrouble(`${what}; it was started again.`, false);
      start();
    });
  };
  start();

  return {
    call: (method, request) => client.call(method, request),
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async stop() {
      stopping = true;
      await client.stop();
    },
  };
}
