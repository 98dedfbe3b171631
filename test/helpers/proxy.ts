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
  /**
   * The first `times` PUTs (forwarded or tunnelled; `bytes` counts the request head too in a tunnel) get only their first `bytes` of body passed on; then the proxy goes silent both
   * ways (the server keeps a half-received upload, the client sees no progress), as a stalled network path does.
   */
  stallPuts?: { bytes: number; times: number };
};

export async function startTestProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  let drops = 0;
  const target = (host: string, port: number) => options.remap?.(host, port) ?? { host, port };

  let stalls = options.stallPuts?.times ?? 0;
  const server = http.createServer((req, res) => {
    // Absolute-form request: forward it.
    const url = new URL(req.url ?? '/');
    if (req.method === 'PUT' && stalls > 0 && options.stallPuts) {
      stalls -= 1;
      requests.push(`${url.hostname}:${url.port || 80}`);
      const to = target(url.hostname, Number(url.port || 80));
      const upstream = http.request({ host: to.host, port: to.port, method: 'PUT', path: `${url.pathname}${url.search}`, headers: req.headers });
      upstream.on('error', () => undefined);
      upstream.on('socket', (socket) => sockets.add(socket));
      let left = options.stallPuts.bytes;
      req.on('data', (chunk: Buffer) => {
        if (left <= 0) return;
        upstream.write(chunk.subarray(0, left));
        left -= chunk.length;
        if (left <= 0) req.pause();
      });
      return;
    }
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
      let stalled = false;
      let left = -1;
      const fromClient = (chunk: Buffer) => {
        if (stalled) return;
        if (left < 0 && stalls > 0 && options.stallPuts && chunk.subarray(0, 4).toString('latin1') === 'PUT ') {
          stalls -= 1;
          left = options.stallPuts.bytes;
        }
        if (left < 0) {
          upstream.write(chunk);
          return;
        }
        upstream.write(chunk.subarray(0, left));
        left -= chunk.length;
        if (left <= 0) {
          // Silent both ways from here: the server holds a half-received upload, the client sees no progress.
          stalled = true;
          client.pause();
        }
      };
      if (head.length) fromClient(head);
      client.on('data', fromClient);
      client.on('end', () => {
        if (!stalled) upstream.end();
      });
      client.on('close', () => {
        if (!stalled) upstream.destroy();
      });
      upstream.on('data', (chunk: Buffer) => {
        if (stalled) return;
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
    // A stalled tunnel keeps its upstream leg open when the client gives up: the server must notice the silence itself.
    client.on('error', () => undefined);
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
