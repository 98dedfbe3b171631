/**
 * Stopping the uploader (Ctrl-C, SIGTERM, the desktop app quitting or changing folder) while the handshake POST
 * waits for a slow service: the request is cut, not waited for, and the file goes again at the next start.
 * Real queue, real server, real files.
 */
import { afterEach, expect, it } from 'vitest';
import { setFaults } from '../../../test/helpers/api-kit';
import { eventually, getToken } from '../../../test/helpers/local-server';
import { censusCsv, startQueueEnv, type QueueEnv } from '../../../test/helpers/queue-kit';

let env: QueueEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

it('cuts a handshake that waits for the service when it stops, and sends the file at the next start', async () => {
  env = await startQueueEnv();
  const token = await getToken(env.server.url);
  // The service would answer the handshake only after a minute.
  await setFaults(env.server.url, token, [{ pathPrefix: '/law/api/v1/payroll-submissions', latencyMs: 60_000 }]);
  // The handshake as the server sees it arrive.
  let arrived = false;
  env.server.app.server.on('request', (request: { method?: string; url?: string }) => {
    if (request.method === 'POST' && request.url?.startsWith('/law/api/v1/payroll-submissions')) arrived = true;
  });
  const first = env.queue();
  await first.start();
  const job = first.add(await env.write('census-stop.csv', censusCsv('stop')))!;
  await eventually(() => (first.job(job.id)?.state === 'granting' ? true : undefined), 20_000);
  // The POST has gone out and waits in the service's delay.
  await eventually(() => (arrived ? true : undefined), 20_000);
  await first.stop();
  // Stopped before the service answered: the service saw the client go away (status 0), not a 201 it sent.
  const handshakes = () => env!.requests('/law/api/v1/payroll-submissions');
  await eventually(() => (handshakes().length > 0 ? true : undefined), 10_000);
  expect(handshakes().map((r) => r.status)).toEqual([0]);

  await setFaults(env.server.url, token, []);
  const second = env.queue();
  await second.start();
  const done = await env.finished(second, job.id);
  expect(done.state).toBe('uploaded');
}, 120_000);
