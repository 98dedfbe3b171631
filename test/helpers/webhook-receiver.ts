/** A real webhook receiver on 127.0.0.1 for tests, whose answer to each request can be scripted. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How to answer one request: a status (after an optional delay), `destroy` the socket without an answer,
 * or `hang` (never answer; the socket is closed by `close()`).
 */
export type ReceiverBehaviour = { status: number; delayMs?: number; body?: string; headers?: Record<string, string> } | { destroy: true } | { hang: true };

export type ReceivedRequest = { method: string; url: string; headers: Record<string, string>; body: string; receivedAt: number };

export type WebhookReceiver = {
  url: string;
  /** Every request in arrival order (recorded once its body is read). */
  requests: ReceivedRequest[];
  /** Sets the answers of the next requests, one per request; after they run out, `fallback` answers. */
  script(...behaviours: ReceiverBehaviour[]): void;
  /** The answer once the script is used up (default 200). */
  setFallback(behaviour: ReceiverBehaviour | ((request: ReceivedRequest) => ReceiverBehaviour)): void;
  close(): Promise<void>;
};

export async function startWebhookReceiver(fallback: ReceiverBehaviour = { status: 200 }): Promise<WebhookReceiver> {
  const queue: ReceiverBehaviour[] = [];
  let otherwise: ReceiverBehaviour | ((request: ReceivedRequest) => ReceiverBehaviour) = fallback;
  const requests: ReceivedRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const received = { method: req.method ?? '', url: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      requests.push(received);
      const behaviour = queue.shift() ?? (typeof otherwise === 'function' ? otherwise(received) : otherwise);
      if ('destroy' in behaviour) {
        req.socket.destroy();
        return;
      }
      if ('hang' in behaviour) return;
      const answer = () => {
        res.writeHead(behaviour.status, { 'content-type': 'text/plain', ...behaviour.headers }).end(behaviour.body ?? 'ok');
      };
      if (!behaviour.delayMs) return answer();
      const timer = setTimeout(() => {
        pending.delete(timer);
        answer();
      }, behaviour.delayMs);
      pending.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    script: (...behaviours) => void queue.push(...behaviours),
    setFallback: (behaviour) => void (otherwise = behaviour),
    close: () => new Promise<void>((resolve) => {
      for (const timer of pending) clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
