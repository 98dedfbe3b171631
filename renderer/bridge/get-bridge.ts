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

export function getBridge(): BridgeApi {
  bridge ??= globalThis.payroll ? fromPreload(globalThis.payroll) : createHttpBridge({ onReconnect: () => reconnectListeners.forEach((fn) => fn()) });
  return bridge;
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
