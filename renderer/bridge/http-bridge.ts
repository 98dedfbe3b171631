/**
 * The bridge in browser mode: methods are POSTs to /bridge/<method>, events arrive over Server-Sent Events. The
 * bridge key the sign-in page kept in this origin's storage authenticates both (sent as a header, and in the event
 * stream's address, as EventSource sends no headers); the session cookie only opens the pages, since a browser sends
 * it to every server on this host, whatever its port. EventSource reconnects by itself and resends the last event id, so no event is lost across a short
 * break; after a long break (the server restarted) the screens refetch on the `reconnect` callback.
 */
import {
  BRIDGE_EVENT_NAMES, BRIDGE_HTTP, BridgeError, bridgeErrorEnvelopeSchema, type BridgeApi, type BridgeEvent,
  type BridgeEventName, type BridgeMethodName, type BridgeRequest, type BridgeResponse,
} from '../../shared/bridge';

type Listener = (payload: never) => void;

const CLOSED = 2; // EventSource.CLOSED, spelled out so a stand-in EventSource class works too
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

export type HttpBridgeOptions = {
  /** Origin of the ui server; default the page's own. */
  baseUrl?: string;
  fetch?: typeof fetch;
  EventSource?: typeof EventSource;
  /** Called after the event stream came back from a break: events may have been missed, refetch what is shown. */
  onReconnect?: () => void;
  /** Called when the event stream opens (true) or breaks (false): while it is broken, what is shown may be stale. */
  onConnectionChange?: (connected: boolean) => void;
  /** The bridge key; default the one the sign-in page kept in this origin's storage. */
  bridgeKey?: () => string | null;
};

function storedBridgeKey(): string | null {
  try {
    return globalThis.localStorage?.getItem(BRIDGE_HTTP.keyStorage) ?? null;
  } catch {
    // Storage refused (a browser set to block it): the server then says this page is not signed in.
    return null;
  }
}

export type HttpBridge = BridgeApi & {
  /** Ends the event stream. */
  close(): void;
  /** Whether the event stream is open right now. */
  connected(): boolean;
};

function transportError(message: string): BridgeError {
  return new BridgeError({ name: 'BridgeTransportError', code: 'internal', message });
}

export function createHttpBridge(options: HttpBridgeOptions = {}): HttpBridge {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const bridgeKey = options.bridgeKey ?? storedBridgeKey;
  const listeners = new Map<BridgeEventName, Set<Listener>>();
  let source: EventSource | undefined;
  let open = false;
  let everOpened = false;
  /** A stream was wanted while the tab was hidden: events may have been missed before it first opens. */
  let missed = false;

  const dispatch = (event: BridgeEventName, data: string): void => {
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    for (const listener of listeners.get(event) ?? []) (listener as (p: unknown) => void)(payload);
  };

  let retryMs = RETRY_MIN_MS;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  // A hidden tab gives its event stream up: a browser opens at most 6 connections to one server, across all its tabs,
  // and each open tab's stream holds one for good, so a sixth tab would leave no connection for any call. Shown
  // again, the tab reconnects and refetches what it shows (onReconnect), as after any break.
  const hidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';
  let wanted = false;

  const disconnect = (): void => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = undefined;
    source?.close();
    source = undefined;
    // Given up on purpose, not lost: the page says nothing of a broken connection.
    open = false;
  };

  const connect = (): void => {
    wanted = true;
    if (source || closed) return;
    if (hidden()) {
      // What the page shows was fetched without the stream: once it opens, that is refetched (onReconnect).
      missed = true;
      return;
    }
    // Looked up on first use, so the client can be made where no EventSource exists (Node, until a listener is added).
    const Source = options.EventSource ?? globalThis.EventSource;
    const key = bridgeKey();
    const query = key === null ? '' : `?${BRIDGE_HTTP.keyParam}=${encodeURIComponent(key)}`;
    const es = new Source(`${base}${BRIDGE_HTTP.events}${query}`, { withCredentials: true });
    source = es;
    es.onopen = () => {
      open = true;
      options.onConnectionChange?.(true);
      retryMs = RETRY_MIN_MS;
      if (everOpened || missed) options.onReconnect?.();
      everOpened = true;
      missed = false;
    };
    es.onerror = () => {
      if (open) options.onConnectionChange?.(false);
      open = false;
      // EventSource retries a dropped connection itself, but gives up for good after an answer that is not a stream
      // (a 503 while the server starts, a 401): start a new one, waiting longer each time.
      if (es.readyState !== CLOSED) return;
      es.close();
      source = undefined;
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        connect();
      }, retryMs);
      retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
    };
    for (const name of BRIDGE_EVENT_NAMES) es.addEventListener(name, (message) => dispatch(name, (message as MessageEvent<string>).data));
  };

  const onVisibility = (): void => {
    if (hidden()) disconnect();
    else if (wanted && !retryTimer) connect();
  };
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibility);

  const keyHeader = (): Record<string, string> => {
    const key = bridgeKey();
    return key === null ? {} : { [BRIDGE_HTTP.keyHeader]: key };
  };

  return {
    platform: 'browser',
    async call<M extends BridgeMethodName>(method: M, request: BridgeRequest<M>): Promise<BridgeResponse<M>> {
      let response: Response;
      try {
        response = await doFetch(`${base}${BRIDGE_HTTP.methods}${method}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', ...keyHeader() },
          body: JSON.stringify(request ?? {}),
        });
      } catch (error) {
        throw transportError(`the app's engine cannot be reached (${(error as Error).message}); is payroll-uploader ui still running?`);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw transportError(`the engine answered ${response.status} without a JSON body`);
      }
      if (typeof body === 'object' && body !== null && 'ok' in body) {
        if (body.ok === true && 'result' in body) return body.result as BridgeResponse<M>;
        if (body.ok === false && 'error' in body) {
          const envelope = bridgeErrorEnvelopeSchema.safeParse(body.error);
          if (envelope.success) throw new BridgeError(envelope.data);
        }
      }
      throw transportError(`the engine answered ${response.status} with an unexpected body`);
    },
    on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvent<E>) => void): () => void {
      connect();
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    close() {
      closed = true;
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibility);
      if (retryTimer) clearTimeout(retryTimer);
      source?.close();
      source = undefined;
      open = false;
    },
    connected: () => open,
  };
}
