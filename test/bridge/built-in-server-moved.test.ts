/**
 * The app's own local test server is one service wherever it listens, so files queued for it follow it to another
 * port. An upload address it gave on its earlier port is not its own any more: another program may listen there now,
 * and a 200 from that program must never be taken for the service holding the file. Real session, keychain, watched
 * folder and embedded server over HTTP, through the bridge handlers; a real program of another kind on the old port
 * that answers every upload 200 with the body's MD5 as its ETag, as the service does.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethodName } from '../../shared/bridge';
import type { Job } from '../../electron/core/queue';
import { loggedRequests } from '../helpers/api-kit';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { eventually, tempDir } from '../helpers/local-server';
import { startTestProxy, type TestProxy } from '../helpers/proxy';
import { md5Of } from '../helpers/queue-kit';
import { callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';

/** Another program on `port`: it answers every request 200, an upload with its body's MD5 as ETag, and keeps a list. */
async function otherProgram(port: number) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const hash = createHash('md5');
    req.on('data', (chunk: Buffer) => hash.update(chunk));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url?.split('?')[0]}`);
      const md5 = hash.digest('hex');
      res.writeHead(200, { ETag: `"${md5}"`, 'content-type': 'application/json' });
      res.end(JSON.stringify({ importId: '00000000-0000-4000-8000-000000000000', status: 'QUEUED', checksum: md5 }));
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return { seen, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

describe('files queued for the built-in server when it comes back on another port', () => {
  let keyring: KeyringHandle;
  let engine: UiEngine;
  let watched: string;
  let proxy: TestProxy | undefined;
  let other: Awaited<ReturnType<typeof otherProgram>> | undefined;

  const ok = <M extends BridgeMethodName>(method: M, request?: unknown) => callOk(engine, method, request);
  const uploadedOnServer = (checksum: string) => {
    const db = engine.session.localServer.running()?.ctx.db;
    return db ? (db.prepare("SELECT count(*) AS n FROM files WHERE checksum = ? AND status = 'UPLOADED'").get(checksum) as { n: number }).n : 0;
  };
  const jobOf = async (name: string) => (await engine.session.queue()).jobs().find((j) => j.name === name);
  /** The job once its PUT failed and it waits to try it again (the retry delay is long: the test moves the server first). */
  const waitingToUpload = (name: string) => eventually(async () => {
    const job = await jobOf(name);
    return job?.state === 'waiting' && job.resumeState === 'uploading' && job.putStartedAt !== undefined ? job : undefined;
  }, 30_000);
  const filed = (name: string) => eventually(async () => {
    const job = await jobOf(name);
    return job?.archivedAt !== undefined ? job : undefined;
  }, 60_000);

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    watched = await tempDir('payroll-built-in-moved-');
    engine = await startUiEngine({ settings: { stabilityMs: 200, sweepIntervalMs: 1000 }, retry: { baseMs: 60_000, maxMs: 120_000 } });
    await ok('localServer.start', {});
    await ok('watch.setFolder', { folder: watched });
    await ok('watch.start');
  }, 60_000);

  afterEach(async () => {
    await other?.close();
    other = undefined;
  });

  afterAll(async () => {
    await engine?.stop();
    await proxy?.close();
    await keyring?.stop();
    await rm(watched, { recursive: true, force: true });
  });

  it('asks the server for a new address where it runs now, and sends nothing to what listens on its old port', async () => {
    // The upload never reaches the server (the connection is dropped before the body is read).
    const { port: before } = await ok('localServer.state');
    await ok('localServer.faults.set', { rules: [{ pathPrefix: '/uploads/', dropRate: 1 }] });
    const content = csvText('census', [censusRow(1)]);
    await writeFile(join(watched, 'census-moved.csv'), content);
    const waiting = await waitingToUpload('census-moved.csv');
    expect(new URL(waiting.grantUrl ?? '').port).toBe(String(before));

    // The server stops; another program takes its port; started again, the server listens on another one.
    await ok('localServer.stop');
    other = await otherProgram(before as number);
    const { port: after } = await ok('localServer.start', {});
    expect(after).not.toBe(before);

    const done = await filed('census-moved.csv');
    expect(done.state).toBe('uploaded');
    expect(other.seen).toEqual([]);
    expect(uploadedOnServer(md5Of(content))).toBe(1);
  }, 120_000);

  it('takes the duplicate answer of the server, started on another port, for the arrival of the earlier upload whose answer was lost', async () => {
    // Through a proxy that loses the answer of the upload: the server holds the file, the app does not know it.
    proxy = await startTestProxy();
    await ok('settings.patch', { proxy: proxy.url });
    const { port: before } = await ok('localServer.state');
    const off = engine.session.on('job', (job: Job) => {
      if (job.name === 'census-answer-lost.csv' && job.state === 'uploading' && job.putStartedAt !== undefined) proxy?.dropNextAnswers(1);
    });
    const content = csvText('census', [censusRow(2)]);
    await writeFile(join(watched, 'census-answer-lost.csv'), content);
    await waitingToUpload('census-answer-lost.csv');
    off();
    expect(uploadedOnServer(md5Of(content))).toBe(1);

    // The clerk starts the server on another port (the Local server screen); another program listens on the old one.
    await ok('localServer.stop');
    other = await otherProgram(before as number);
    const { port: after } = await ok('localServer.start', { port: await freePort() });
    expect(after).not.toBe(before);

    const done = await filed('census-answer-lost.csv');
    expect(done.state).toBe('uploaded');
    expect(done.archivedPath).toMatch(/uploaded/);
    expect(other.seen).toEqual([]);
    expect(uploadedOnServer(md5Of(content))).toBe(1);
    // The server, asked for a new address, answered that it holds this checksum: that answer settled it.
    const server = engine.session.localServer.running();
    expect(server && loggedRequests(server, '/law/api/v1/payroll-submissions').map((r) => r.status).at(-1)).toBe(422);
  }, 120_000);
});
