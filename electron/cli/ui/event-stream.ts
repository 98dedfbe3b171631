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

  const write = (response: ServerResponse, text: string, event: string): void => {
    counts[event] = (counts[event] ?? 0) + 1;
    response.write(text);
  };
  const heartbeat = setInterval(() => {
    for (const response of open) response.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    publish(message) {
      seq += 1;
      const text = `id: ${run}-${seq}\nevent: ${message.event}\ndata: ${JSON.stringify(message.payload)}\n\n`;
      kept.push({ seq, text, event: message.event });
      if (kept.length > KEEP) kept.shift();
      for (const response of open) write(response, text, message.event);
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
        for (const entry of kept) if (entry.seq > Number(lastSeq)) write(response, entry.text, entry.event);
      }
      open.add(response);
      const forget = () => open.delete(response);
      request.on('close', forget);
      response.on('close', forget);
    },
    sent: () => ({ ...counts }),
    clients: () => open.size,
    close() {
      clearInterval(heartbeat);
      for (const response of open) response.end();
      open.clear();
    },
  };
}
