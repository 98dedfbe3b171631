/** Which bridge the screens talk to: the real one in the app, an in-memory stand-in in component tests. */
import { createContext, useContext, type ReactNode } from 'react';
import type { BridgeApi } from '../../shared/bridge';

const BridgeContext = createContext<BridgeApi | null>(null);

export function BridgeProvider({ bridge, children }: { bridge: BridgeApi; children: ReactNode }) {
  return <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>;
}

export function useBridge(): BridgeApi {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge needs a BridgeProvider above it');
  return bridge;
}
