import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readSse } from '../../../test/helpers/sse';
import { MAX_UNSENT_BYTES, createEventStream, type EventStream } from './event-stream';

describe('browser mode event stream', () => {
  let server: Server | undefined;
  let stream: EventStream | undefined;
  afterEach(async () => {
    stream?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('drops a client that stopped reading once its unsent events pass the limit, and goes on feeding one that reads', async () => {
    const events = createEventStream();
    stream = events;
    server = createServer((request, response) => events.attach(request, response));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;

    // A client that sends its request and never reads a byte of the answer (a frozen tab, a hung script).
    const stalled = connect(port, '127.0.0.1');
    stalled.pause();
    await new Promise((resolve) => stalled.once('connect', resolve));
    stalled.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const reader = await readSse(`http://127.0.0.1:${port}/events`);
    await expect.poll(() => events.clients()).toBe(2);

    const payload = { text: 'x'.repeat(3000) };
    const count = Math.ceil((MAX_UNSENT_BYTES * 1.5) / 3000);
    for (let i = 0; i < count; i++) {
      events.publish({ event: 'notice', payload } as never);
      // Now and then the reading client takes all it was sent (it runs in this process, so it reads only when the
      // publishing pauses): it is never more than 500 events (1.5 MB) behind, however slow the machine.
      if (i % 500 === 499) await reader.waitFor(i + 1, 60_000);
    }
    // The stalled client is gone: kept, its unsent events would have grown without end.
    expect(events.clients()).toBe(1);
    await reader.waitFor(count, 60_000);
    expect(reader.messages).toHaveLength(count);
    reader.close();
    stalled.destroy();
  }, 120_000);
});
