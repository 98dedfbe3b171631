export { createBridgeHandlers, type BridgeHandlers, type BridgeHandlersOptions } from './bridge-handlers';
export { relayEvents, PROGRESS_INTERVAL_MS, type EventRelayOptions } from './bridge-events';
export { toEnvelope, HTTP_STATUS } from './error-envelope';
