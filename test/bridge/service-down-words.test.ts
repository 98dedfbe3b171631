/**
 * A file waiting because the service did not answer says so in the clerk's words: where it went and what to check,
 * never the request the app made ("cannot reach POST http://…/law/api/v1/payroll-submissions: connection refused"),
 * nor, for an upload, its pre-signed address ("cannot reach PUT http://…/uploads/<id>…"). It keeps its next try: a
 * service that is down may come back by itself. A real session (ui-engine) watching a real folder, and a real local
 * server over HTTP that is stopped, or drops the upload's connection first.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../shared/bridge';
import { TEST_CLIENT, api, eventually, getToken, startTestServer, tempDir, type TestServer } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

let server: TestServer | undefined;
let engine: UiEngine | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await engine?.stop();
  await server?.stop();
  engine = undefined;
  server = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function watching(): Promise<{ folder: string; address: string }> {
  server = await startTestServer();
  const folder = await tempDir('payroll-down-words-');
  dirs.push(folder);
  engine = await startUiEngine({
    settings: { activeProfile: 'sandbox', profiles: { sandbox: { baseUrl: server.url } }, watchedFolder: folder, stabilityMs: 200, sweepIntervalMs: 1000 },
    env: { PAYROLL_CLIENT_ID: TEST_CLIENT.id, PAYROLL_CLIENT_SECRET: TEST_CLIENT.secret },
  });
  await callOk(engine, 'watch.start');
  return { folder, address: new URL(server.url).origin };
}

const jobNamed = async (name: string): Promise<JobView | undefined> =>
  (await callOk(engine!, 'jobs.query', { text: name })).items.find((job) => job.name === name);
/** The job once it waits to retry `step` with `reason` matching. */
const waiting = (name: string, step: JobView['resumeState'], reason: RegExp) => eventually(async () => {
  const job = await jobNamed(name);
  return job?.state === 'waiting' && job.resumeState === step && reason.test(job.lastError ?? '') ? job : undefined;
}, 60_000);
const REQUEST_LINE = /POST|PUT|\/law\/api|\/oauth|\/uploads/;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a file waiting for a service that does not answer', () => {
  it('says nothing answers at the service and what to check, not the request line, and keeps its next try', async () => {
    const { folder, address } = await watching();
    await server!.stop();
    await writeFile(join(folder, 'census-down.csv'), censusCsv('down-words-handshake'));

    const job = await waiting('census-down.csv', 'granting', /./);
    expect(job.lastError).toBe(`requesting an upload address failed. Nothing answers at ${address} (connection refused). `
      + 'Check the base URL, and that the service is running');
    expect(job.lastError).not.toMatch(REQUEST_LINE);
    // The service may come back by itself: the next try is on its way.
    expect(job.nextAttemptAt).toBeDefined();
  }, 120_000);

  it('says an upload cut off, and then a service gone, without the upload address', async () => {
    const { folder, address } = await watching();
    // The service drops every upload's connection: the PUT went out and no answer came back.
    const token = await getToken(server!.url);
    expect((await api(server!.url, token, 'PUT', '/local/v1/faults', [{ pathPrefix: '/uploads', dropRate: 1 }])).status).toBe(200);
    await writeFile(join(folder, 'census-cut.csv'), censusCsv('down-words-upload'));

    const cut = await waiting('census-cut.csv', 'uploading', /./);
    expect(cut.lastError).toMatch(new RegExp(`^the upload failed\\. The upload went to the service at ${escaped(address)}, but no answer came back \\(.+\\)\\. Check the network connection`));
    expect(cut.lastError).not.toMatch(REQUEST_LINE);

    // Then the service goes away altogether: the next tries find nothing there.
    await server!.stop();
    const gone = await waiting('census-cut.csv', 'uploading', /Nothing answers/);
    expect(gone.lastError).toBe(`the upload failed. Nothing answers at ${address} (connection refused). Check the base URL, and that the service is running`);
    expect(gone.nextAttemptAt).toBeDefined();
  }, 120_000);
});
