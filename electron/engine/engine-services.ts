/**
 * The engine's services: the transport-free bridge handlers (electron/core/bridge) on one session service
 * (electron/core/session), opened on the app's data folder with the settings file the shell also opens and the
 * OS keychain. The same handlers serve browser mode.
 */
import { BridgeError } from '../../shared/bridge';
import { createBridgeHandlers, relayEvents } from '../core/bridge';
import { KeychainSecretStore } from '../core/credentials';
import { createSession } from '../core/session';
import { createSettingsStore } from '../core/settings';
import type { Logger } from '../lib/logger';
import type { EngineServices } from './engine-host';

export type EngineServicesOptions = { dataDir: string; logger: Logger };

export function createEngineServices(options: EngineServicesOptions): Promise<EngineServices> {
  const { dataDir, logger } = options;
  const session = createSession({ dataDir, settings: createSettingsStore({ cwd: dataDir }), secrets: new KeychainSecretStore(), logger });
  const handlers = createBridgeHandlers({ session, logger: logger.child('bridge') });
  return Promise.resolve({
    async call(method, request) {
      const reply = await handlers.call(method, request);
      if (!reply.ok) throw new BridgeError(reply.error);
      return reply.result;
    },
    subscribe: (emit) => relayEvents(session, ({ event, payload }) => emit(event, payload)),
    async close() {
      handlers.close();
      await session.close();
    },
  });
}
