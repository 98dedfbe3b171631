/**
 * A client retired while a request is under way (the session retires clients when the address, proxy or credentials
 * change) lets that request finish: a JSON batch the service is importing is answered, not cut off with an unknown
 * outcome. Its idle connections close at once, and the busy one once its request has ended. A real local server over
 * HTTP.
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedRequests, setFaults } from '../../../test/helpers/api-kit';
import { TEST_CLIENT, eventually, getToken, startTestServer, type TestServer } from '../../../test/helpers/local-server';
import { createApiClient } from './api-client';

const HIRE = [{ lastName: 'Silva', firstName: 'Ana', employeeRegistration: 'C-1', hireDate: '2026-01-05', employeeStatus: 'ACTIVE' }];

describe('a retired API client', () => {
  let server: TestServer;

  /** The connections made to the server from now on, as the server sees them. */
  const watchConnections = () => {
    const sockets: Socket[] = [];
    server.app.server.on('connection', (socket: Socket) => sockets.push(socket));
    return { open: () => sockets.filter((socket) => !socket.destroyed && !socket.closed).length };
  };

  beforeAll(async () => {
    server = await startTestServer();
    await setFaults(server.url, await getToken(server.url), [{ pathPrefix: '/law/api/v1/census', latencyMs: 1500 }]);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('lets a batch under way finish, and closes every connection once it has', async () => {
    const client = createApiClient({ baseUrl: server.url, credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }) });
    const connections = watchConnections();
    let batchArrived = false;
    server.app.server.on('request', (request: { url?: string }) => {
      if (request.url?.startsWith('/law/api/v1/census')) batchArrived = true;
    });
    // A token first: its connection stays open, idle, for reuse.
    await client.getToken();
    const sending = client.sendBatch('census', HIRE);
    // The batch's request is at the server, which takes its time to answer.
    await eventually(() => (batchArrived ? true : undefined), 10_000);
    expect(connections.open()).toBe(2);
    client.close();
    const created = await sending;
    expect(created.id).toMatch(/\S/);
    expect(loggedRequests(server, '/law/api/v1/census').map((r) => r.status)).toEqual([201]);
    // Nothing is kept for reuse after it: the client holds no connection any more.
    await eventually(() => (connections.open() === 0 ? true : undefined), 10_000);
  }, 30_000);

  it('keeps no connection of a call made after it was retired (a retry of a request that was under way)', async () => {
    const client = createApiClient({ baseUrl: server.url, credentials: () => Promise.resolve({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }) });
    const connections = watchConnections();
    client.close();
    await client.getToken();
    await eventually(() => (connections.open() === 0 ? true : undefined), 10_000);
  }, 30_000);
});
