/** Listener map: event name -> payload type. */
export type EventMap = Record<string, unknown>;

export type Unsubscribe = () => void;

/** A tiny typed emitter whose `emit` never throws: a failing listener is reported to `onListenerError`. */
export type TypedEmitter<E extends EventMap> = {
  on: <K extends keyof E>(event: K, listener: (payload: E[K]) => void) => Unsubscribe;
  off: <K extends keyof E>(event: K, listener: (payload: E[K]) => void) => void;
  emit: <K extends keyof E>(event: K, payload: E[K]) => void;
  clear: () => void;
};

export function createTypedEmitter<E extends EventMap>(onListenerError: (error: unknown) => void): TypedEmitter<E> {
  const listeners = new Map<keyof E, Set<(payload: never) => void>>();
  const off = <K extends keyof E>(event: K, listener: (payload: E[K]) => void): void => {
    listeners.get(event)?.delete(listener);
  };
  return {
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener);
      return () => off(event, listener);
    },
    off,
    emit(event, payload) {
      // Copy first so a listener that unsubscribes itself does not disturb this round.
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          (listener as (p: typeof payload) => void)(payload);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    clear() {
      listeners.clear();
    },
  };
}
