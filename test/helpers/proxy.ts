/** A real, tiny HTTP proxy for tests: CONNECT tunnels and absolute-form forwarding, counted; it can remap hosts and drop answers. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type TestProxy = {
  url: string;
  /** `host:port` of every CONNECT and forwarded request, in order. */
  readonly requests: string[];
  /** Drops the next `n` answers coming back from the target (the request got there; the client sees a reset). */
  dropNextAnswers(n: number): void;
  close(): Promise<void>;
};

export type TestProxyOptions = {
  /** Where to really connect for a requested host (e.g. a made-up name to 127.0.0.1:port). */
  remap?: (host: string, port: number) => { host: string; port: number };
};

export async function startTestProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  let drops = 0;
  const target = (host: string, port: number) => options.remap?.(host, port) ?? { host, port };

  const server = http.createServer((req, res) => {
    // Absolute-form request: forward it.
    const url = new URL(req.url ?? '/');
    requests.push(`${url.hostname}:${url.port || 80}`);
    const to = target(url.hostname, Number(url.port || 80));
    const upstream = http.request({ host: to.host, port: to.port, method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers }, (answer) => {
      if (drops > 0) {
        drops--;
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const [host = '', portText = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    requests.push(`${host}:${portText}`);
    const to = target(host.replace(/^\[|\]$/g, ''), Number(portText));
    const upstream = net.connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      client.pipe(upstream);
      upstream.on('data', (chunk: Buffer) => {
        if (drops > 0) {
          drops--;
          client.destroy();
          upstream.destroy();
          return;
        }
        client.write(chunk);
      });
    });
    sockets.add(client).add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('end', () => client.end());
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    dropNextAnswers: (n) => {
      drops = n;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
