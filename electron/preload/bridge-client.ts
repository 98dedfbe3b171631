/**
 * window.payroll: the bridge contract over IPC. Calls go to `payroll:call` (main checks the sender and validates);
 * events arrive on `payroll:event`. Nothing else of Electron or Node reaches the page.
 */
import type { IpcRenderer, IpcRendererEvent } from 'electron';
// Types only: the sandboxed preload bundle stays free of zod (main validates every call).
import type {
  BRIDGE_IPC, BridgeApi, BridgeErrorEnvelope, BridgeEvent, BridgeEventName, BridgeMethodName, BridgeRequest, BridgeResponse,
} from '../../shared/bridge';

/** The contract's channel names, held to them by the type checker. */
export const CHANNELS = { call: 'payroll:call', event: 'payroll:event' } as const satisfies typeof BRIDGE_IPC;

type Listener = (payload: unknown) => void;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * What a failed call rejects with. contextBridge copies only the message of an Error, so the envelope crosses as a
 * plain object with the envelope's fields (`name`, `message`, `code`, `fields`, `status`); the renderer's
 * getBridge() turns it back into a BridgeError.
 */
function rejection(error: BridgeErrorEnvelope): BridgeErrorEnvelope {
  return { ...error };
}

export function createBridgeClient(ipc: Pick<IpcRenderer, 'invoke' | 'on'>): BridgeApi {
  const listeners = new Map<string, Set<Listener>>();
  ipc.on(CHANNELS.event, (_event: IpcRendererEvent, message: unknown) => {
    if (!isObject(message) || typeof message.event !== 'string') return;
    for (const listener of listeners.get(message.event) ?? []) {
      try {
        listener(message.payload);
      } catch {
        // One screen's failing listener must not keep the event from the others.
      }
    }
  });

  const api = {
    platform: 'desktop' as const,
    async call<M extends BridgeMethodName>(method: M, request: BridgeRequest<M>): Promise<BridgeResponse<M>> {
      const reply: unknown = await ipc.invoke(CHANNELS.call, method, request);
      if (isObject(reply) && reply.ok === true) return reply.result as BridgeResponse<M>;
      // contextBridge keeps only the message of an Error: the envelope crosses as data (see rejection()).
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      if (isObject(reply) && reply.ok === false && isObject(reply.error)) throw rejection(reply.error as BridgeErrorEnvelope);
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw rejection({ name: 'BridgeError', code: 'internal', message: `${method}: the app's engine gave no answer.` });
    },
    on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvent<E>) => void): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const wrapped = listener as Listener;
      set.add(wrapped);
      return () => void set.delete(wrapped);
    },
  };
  return api satisfies BridgeApi;
}
