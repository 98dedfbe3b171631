/**
 * The messages between the Electron main process and the engine process (a utilityProcess in the app, a plain
 * Node child in tests). Plain data only: they are structured-cloned.
 */
import type { BridgeErrorEnvelope } from '../../shared/bridge';

/** main -> engine */
export type EngineInbound =
  | { type: 'call'; id: number; method: string; request: unknown }
  | { type: 'stop' };

/** engine -> main */
export type EngineOutbound =
  | { type: 'ready' }
  | { type: 'reply'; id: number; ok: true; result: unknown }
  | { type: 'reply'; id: number; ok: false; error: BridgeErrorEnvelope }
  | { type: 'event'; event: string; payload: unknown }
  | { type: 'fatal'; error: BridgeErrorEnvelope }
  | { type: 'stopped' };

/** One end of the engine's message channel, whatever carries it. */
export type EnginePort = {
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Checks a message from main; anything else is ignored (the channel is ours, but a bug must not crash the engine). */
export function parseInbound(message: unknown): EngineInbound | undefined {
  if (!isObject(message)) return undefined;
  if (message.type === 'stop') return { type: 'stop' };
  if (message.type === 'call' && Number.isSafeInteger(message.id) && typeof message.method === 'string') {
    return { type: 'call', id: message.id as number, method: message.method, request: message.request };
  }
  return undefined;
}

export function parseOutbound(message: unknown): EngineOutbound | undefined {
  if (!isObject(message) || typeof message.type !== 'string') return undefined;
  switch (message.type) {
    case 'ready':
    case 'stopped':
      return { type: message.type };
    case 'reply':
      if (!Number.isSafeInteger(message.id) || typeof message.ok !== 'boolean') return undefined;
      return message as EngineOutbound;
    case 'event':
      return typeof message.event === 'string' ? (message as EngineOutbound) : undefined;
    case 'fatal':
      return isObject(message.error) ? (message as EngineOutbound) : undefined;
    default:
      return undefined;
  }
}
