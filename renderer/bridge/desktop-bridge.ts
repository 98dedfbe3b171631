/**
 * The Electron preload's window.payroll as the screens use it. contextBridge copies only the message of an Error, so
 * the preload rejects with the plain error envelope; here it becomes a BridgeError again, as in browser mode.
 */
import { BridgeError, bridgeErrorEnvelopeSchema, type BridgeApi } from '../../shared/bridge';

export function fromPreload(api: BridgeApi): BridgeApi {
  return {
    platform: api.platform,
    call: (method, request) =>
      api.call(method, request).catch((reason: unknown) => {
        const envelope = bridgeErrorEnvelopeSchema.safeParse(reason);
        throw envelope.success ? new BridgeError(envelope.data) : reason;
      }),
    on: (event, listener) => api.on(event, listener),
  };
}
