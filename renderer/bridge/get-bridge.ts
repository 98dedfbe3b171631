/** The one way screens reach the core: the Electron preload's window.payroll, else the browser-mode HTTP bridge. */
import type { BridgeApi } from '../../shared/bridge';
import { fromPreload } from './desktop-bridge';
import { createHttpBridge } from './http-bridge';

declare global {
  // Set by the Electron preload (contextBridge); absent in browser mode.
  var payroll: BridgeApi | undefined;
}

let bridge: BridgeApi | undefined;
const reconnectListeners = new Set<() => void>();
const connectionListeners = new Set<() => void>();
// The desktop app's engine lives and dies with its window: only browser mode can lose it.
let connected = true;

export function getBridge(): BridgeApi {
  bridge ??= globalThis.payroll ? fromPreload(globalThis.payroll) : createHttpBridge({
    onReconnect: () => reconnectListeners.forEach((fn) => fn()),
    onConnectionChange: (now) => {
      connected = now;
      connectionListeners.forEach((fn) => fn());
    },
  });
  return bridge;
}

/** Whether the engine's event stream is open (always true in the desktop app), for useSyncExternalStore. */
export const bridgeConnected = (): boolean => connected;

/** Tells `listener` when bridgeConnected() changes. Returns the unsubscribe function. */
export function onBridgeConnection(listener: () => void): () => void {
  connectionListeners.add(listener);
  return () => {
    connectionListeners.delete(listener);
  };
}

/**
 * Called when the event stream came back after a break (browser mode: the ui process restarted or the network
 * dropped), so events may have been missed: refetch what is on screen. Returns the unsubscribe function.
 */
export function onBridgeReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => {
    reconnectListeners.delete(listener);
  };
}
