/**
 * The engine side of the channel: answers method calls with the bridge handlers and forwards their events. It runs
 * in its own process so hashing 100 MB and SQLite commits never hold up the window.
 */
import { BridgeError, bridgeErrorEnvelopeSchema, type BridgeErrorEnvelope } from '../../shared/bridge';
import type { Logger } from '../lib/logger';
import { parseInbound, type EnginePort, type EngineOutbound } from './engine-protocol';

/** What the engine serves: the transport-free bridge handlers, seen from the channel. */
export type EngineServices = {
  call(method: string, request: unknown): Promise<unknown>;
  /** Subscribes to every bridge event; returns the unsubscribe function. */
  subscribe(emit: (event: string, payload: unknown) => void): () => void;
  close(): Promise<void>;
};

export type EngineHost = {
  /** Resolves once stopped (services closed, `stopped` sent). */
  readonly stopped: Promise<void>;
  /** Stops as a `stop` message would (the parent went away). */
  stop(): Promise<void>;
};

/** The envelope of anything a handler threw; unknown errors are logged here and cross as `internal`. */
export function envelopeOf(error: unknown, logger?: Logger): BridgeErrorEnvelope {
  if (error instanceof BridgeError) return error.toEnvelope();
  const parsed = bridgeErrorEnvelopeSchema.safeParse(error);
  if (parsed.success) return parsed.data;
  logger?.error(`a handler failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return { name: 'BridgeError', code: 'internal', message: 'The engine failed to answer; the details are in its log.' };
}

export function startEngineHost(port: EnginePort, services: EngineServices, logger?: Logger): EngineHost {
  const post = (message: EngineOutbound): void => port.postMessage(message);
  const unsubscribe = services.subscribe((event, payload) => post({ type: 'event', event, payload }));
  let stopping: Promise<void> | undefined;
  let markStopped!: () => void;
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve;
  });

  const stop = async (): Promise<void> => {
    unsubscribe();
    try {
      await services.close();
    } catch (error) {
      logger?.error(`closing the engine failed: ${String(error)}`);
    }
    post({ type: 'stopped' });
    markStopped();
  };

  const requestStop = (): Promise<void> => (stopping ??= stop());

  port.onMessage((raw) => {
    const message = parseInbound(raw);
    if (!message) {
      logger?.warn('ignored a message that is not an engine call');
      return;
    }
    if (message.type === 'stop') {
      void requestStop();
      return;
    }
    if (stopping) {
      post({ type: 'reply', id: message.id, ok: false, error: { name: 'BridgeError', code: 'conflict', message: 'The app is closing.' } });
      return;
    }
    services.call(message.method, message.request).then(
      (result) => post({ type: 'reply', id: message.id, ok: true, result }),
      (error: unknown) => post({ type: 'reply', id: message.id, ok: false, error: envelopeOf(error, logger) }),
    );
  });
  post({ type: 'ready' });
  return { stopped, stop: requestStop };
}
