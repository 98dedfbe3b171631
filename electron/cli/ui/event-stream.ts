/**
 * Server-Sent Events for browser mode: one numbered stream of bridge events. The newest events are kept, so a page that
 * reconnects with Last-Event-ID gets what it missed; ids carry this server's start so a page reconnecting to a restarted
 * server is not fed another run's numbers.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BridgeEventMessage } from '../../../shared/bridge';

const KEEP = 2_000;
const HEARTBEAT_MS = 15_000;
/**
 * A stream that stops reading (a frozen tab, a hung script) is dropped once its unsent events pass this many bytes, or
 * once it has not caught up for BEHIND_MS: otherwise the process would keep every event for it, without end. A dropped
 * page reconnects with Last-Event-ID and gets what it missed from the kept events, or refetches.
 */
export const MAX_UNSENT_BYTES = 16 * 1024 * 1024;
export const BEHIND_MS = 30_000;
/** How soon EventSource tries again after a break. */
const RETRY_MS = 1_000;

export type EventStream = {
  /** Numbers and sends an event to every open stream. */
  publish(message: BridgeEventMessage): void;
  /** Takes over the response as an event stream. */
  attach(request: IncomingMessage, response: ServerResponse): void;
  /** How many SSE messages went out (all clients), per event name. */
  sent(): Record<string, number>;
  clients(): number;
  close(): void;
};

export function createEventStream(): EventStream {
  const run = randomBytes(4).toString('hex');
  const kept: { seq: number; text: string; event: string }[] = [];
  const open = new Set<ServerResponse>();
  const counts: Record<string, number> = {};
  let seq = 0;

  /** When each stream that has not taken all it was sent fell behind. */
  const behindSince = new Map<ServerResponse, number>();
  const forget = (response: ServerResponse) => {
    open.delete(response);
    behindSince.delete(response);
  };
  const send = (response: ServerResponse, text: string): void => {
    if (response.write(text) || behindSince.has(response)) return;
    behindSince.set(response, Date.now());
    response.once('drain', () => behindSince.delete(response));
  };
  /** Sends to every open stream, dropping those that stopped reading first. */
  const sendAll = (text: string, event?: string): void => {
    const now = Date.now();
    for (const response of open) {
      const since = behindSince.get(response);
      if (response.writableLength > MAX_UNSENT_BYTES || (since !== undefined && now - since > BEHIND_MS)) {
        forget(response);
        response.destroy();
        continue;
      }
      if (event !== undefined) counts[event] = (counts[event] ?? 0) + 1;
      send(response, text);
    }
  };
  const heartbeat = setInterval(() => sendAll(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();

  return {
    publish(message) {
      seq += 1;
      const text = `id: ${run}-${seq}\nevent: ${message.event}\ndata: ${JSON.stringify(message.payload)}\n\n`;
      kept.push({ seq, text, event: message.event });
      if (kept.length > KEEP) kept.shift();
      sendAll(text, message.event);
    },
    attach(request, response) {
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      response.write(`retry: ${RETRY_MS}\n\n`);
      const last = String(request.headers['last-event-id'] ?? '');
      const [lastRun, lastSeq] = last.split('-');
      if (lastRun === run && lastSeq !== undefined && /^\d+$/.test(lastSeq)) {
        for (const entry of kept) {
          if (entry.seq <= Number(lastSeq)) continue;
          counts[entry.event] = (counts[entry.event] ?? 0) + 1;
          send(response, entry.text);
        }
      }
      open.add(response);
      request.on('close', () => forget(response));
      response.on('close', () => forget(response));
    },
    sent: () => ({ ...counts }),
    clients: () => open.size,
    close() {
      clearInterval(heartbeat);
      for (const response of open) response.end();
      open.clear();
      behindSince.clear();
    },
  };
}
