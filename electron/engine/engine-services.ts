/**
 * The seam between the engine process and the core: the bridge handlers (electron/core/bridge) on one session
 * service (electron/core/session), opened on the app's data folder.
 */
import { BridgeError } from '../../shared/bridge';
import type { Logger } from '../lib/logger';
import type { EngineServices } from './engine-host';

export type EngineServicesOptions = { dataDir: string; logger: Logger };

export function createEngineServices(_options: EngineServicesOptions): Promise<EngineServices> {
  return Promise.resolve({
    call: (method) => Promise.reject(new BridgeError({ name: 'BridgeError', code: 'unsupported', message: `${method} is not wired to the core yet.` })),
    subscribe: () => () => undefined,
    close: () => Promise.resolve(),
  });
}
