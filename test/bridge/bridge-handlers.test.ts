/**
 * Every bridge method through the transport-free handlers, on a real session: settings file, journal, gnome-keyring,
 * the embedded local server over real HTTP and a real watched folder. Answers are checked against their schemas.
 */
import { existsSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethodName, JobView } from '../../shared/bridge';
import { censusRow, csvText } from '../helpers/csv-fixtures';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { tempDir } from '../helpers/local-server';
import { callFails, callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

describe('bridge handlers on a real session', () => {
  let keyring: KeyringHandle;
  let engine: UiEngine;
  let watched: string;
  let receiver: WebhookReceiver;

  const ok = <M extends BridgeMethodName>(method: M, request?: unknown) => callOk(engine, method, request);
  const fails = (method: BridgeMethodName, request?: unknown) => callFails(engine, method, request);
  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const jobNamed = (name: string, finished = true) => until(`${name} to finish`, async () => {
    const { items } = await ok('jobs.query', { text: name });
    return items.find((j: JobView) => j.name === name && j.finished === finished);
  });

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    watched = await tempDir('payroll-watched-');
    receiver = await startWebhookReceiver();
    engine = await startUiEngine({
      settings: { stabilityMs: 200, sweepIntervalMs: 1000 },
      // A failed step waits a minute: only jobs.retryNow brings it back sooner.
      retry: { baseMs: 60_000, maxMs: 120_000 },
      localServer: { retryDelaysMs: [50, 50, 50, 50, 50], deliveryTimeoutMs: 20_000 },
    });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await receiver?.close();
    await keyring?.stop();
    await rm(watched, { recursive: true, force: true });
  });

  it('refuses an unknown method and a bad argument with their codes', async () => {
    expect(await fails('nope.never' as BridgeMethodName)).toMatchObject({ code: 'unknown_method' });
    expect(await fails('jobs.get', { id: 'one' })).toMatchObject({ code: 'invalid_argument', fields: [{ path: 'id' }] });
  });

  it('reads and patches settings, per field, and null removes a key', async () => {
    const view = await ok('settings.get');
    expect(view.file).toBe(join(engine.dataDir, 'settings.json'));
    expect(view.settings.activeProfile).toBe('local');
    const bad = await fails('settings.patch', { concurrency: 99, proxy: 'ftp://x' });
    expect(bad.code).toBe('invalid_argument');
    expect(bad.fields?.map((f) => f.path).sort()).toEqual(['concurrency', 'proxy']);
    expect((await ok('settings.patch', { proxy: 'http://proxy.example:3128' })).settings.proxy).toBe('http://proxy.example:3128');
    expect((await ok('settings.patch', { proxy: null })).settings.proxy).toBeUndefined();
    expect((await ok('settings.get')).settings.concurrency).toBe(2);
  });

  it('answers not_configured, never a crash, for a profile without a base URL', async () => {
    const switched = await ok('profile.switch', { profile: 'sandbox' });
    expect(switched.settings.activeProfile).toBe('sandbox');
    expect(await fails('deliveries.list')).toMatchObject({ code: 'not_configured' });
    expect(await fails('credentials.test', { profile: 'sandbox' })).toMatchObject({ code: 'not_configured' });
    expect(await fails('batches.send', { kind: 'census', records: [censusRow(1)] })).toMatchObject({ code: 'not_configured' });
    await ok('profile.switch', { profile: 'local' });
  });

  it('starts the local server, keeps its client in the keychain and points the Local profile at it', async () => {
    expect(await fails('localServer.credentials')).toMatchObject({ code: 'conflict' });
    const state = await ok('localServer.start', {});
    expect(state).toMatchObject({ running: true, clientId: 'payroll-uploader-app' });
    expect(state.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await ok('settings.get')).settings.profiles.local).toEqual({ baseUrl: state.url, clientId: 'payroll-uploader-app' });
    const status = await ok('credentials.status', { profile: 'local' });
    expect(status).toEqual({ profile: 'local', stored: true, source: 'keychain', clientId: 'payroll-uploader-app' });
    const own = await ok('localServer.credentials');
    expect(own.clientSecret.length).toBeGreaterThanOrEqual(32);
    const test = await ok('credentials.test', { profile: 'local' });
    expect(test.ok).toBe(true);
    expect(test.scopes).toEqual(expect.arrayContaining(['census:write', 'submissions:write', 'deliveries:read']));
  });

  it('sets, tests, reports and deletes a profile\'s credentials; the secret is never answered', async () => {
    const url = engine.session.localServer.state().url as string;
    await ok('settings.patch', { profiles: { sandbox: { baseUrl: url } } });
    const set = await ok('credentials.set', { profile: 'sandbox', clientId: 'someone-else', clientSecret: 'wrong-secret' });
    expect(set).toEqual({ profile: 'sandbox', stored: true, source: 'keychain', clientId: 'someone-else' });
    expect(JSON.stringify(set)).not.toContain('wrong-secret');
    const refused = await ok('credentials.test', { profile: 'sandbox' });
    expect(refused.ok).toBe(false);
    // In the clerk's words, with what the service said, not the request the API client made.
    expect(refused.message).toBe('The service did not accept this client ID and secret (it said: unknown client or wrong client secret). '
      + 'Check both with your service provider, type them again and test once more.');
    const deleted = await ok('credentials.delete', { profile: 'sandbox' });
    expect(deleted).toMatchObject({ profile: 'sandbox', stored: false, source: 'none' });
    expect(await fails('credentials.set', { profile: 'sandbox', clientId: ' ', clientSecret: 'x' })).toMatchObject({ fields: [{ path: 'clientId' }] });
  });

  it('watches a folder: state, pause, resume, stop; a refused file gets its error report and can be re-queued', async () => {
    expect(await ok('watch.state')).toEqual({ state: 'stopped' });
    expect(await fails('watch.start')).toMatchObject({ code: 'not_configured' });
    expect(await fails('watch.setFolder', { folder: 'relative/path' })).toMatchObject({ code: 'invalid_argument', fields: [{ path: 'folder', message: 'must be an absolute path' }] });
    expect(await ok('watch.setFolder', { folder: watched })).toEqual({ folder: watched, state: 'stopped' });
    expect(await fails('watch.browse')).toMatchObject({ code: 'unsupported' });
    expect(await ok('watch.start')).toEqual({ folder: watched, state: 'watching' });
    expect(await ok('watch.pause')).toEqual({ folder: watched, state: 'paused' });
    expect(await ok('watch.resume')).toEqual({ folder: watched, state: 'watching' });

    await writeFile(join(watched, 'census-good.csv'), csvText('census', [censusRow(1), censusRow(2)]));
    await writeFile(join(watched, 'census-bad.csv'), 'not,a,census\n1,2,3\n');
    const good = await jobNamed('census-good.csv');
    expect(good).toMatchObject({ state: 'uploaded', outcome: 'uploaded', fileType: '1' });
    const bad = await jobNamed('census-bad.csv');
    expect(bad.state).toBe('rejected');

    const detail = await ok('jobs.get', { id: bad.id });
    expect(detail.errorFile).toBe(`${bad.archivedPath}.error.txt`);
    expect(detail.archivedFileThere).toBe(true);
    const report = await ok('jobs.errorFile', { id: bad.id });
    expect(report.text).toContain('census-bad.csv was not uploaded.');
    expect(await fails('jobs.errorFile', { id: good.id })).toMatchObject({ code: 'not_found' });
    expect(await ok('jobs.reveal', { id: good.id })).toEqual({ path: good.archivedPath, revealed: false });
    expect(await fails('jobs.retryNow', { id: good.id })).toMatchObject({ code: 'conflict' });
    expect(await fails('jobs.get', { id: 99_999 })).toMatchObject({ code: 'not_found' });

    // The clerk fixes the file where it lies in rejected/, then sends it back.
    await writeFile(bad.archivedPath as string, csvText('census', [censusRow(3)]));
    // A double click sends two at once: one puts the file back, the other is told so.
    const [first, second] = await Promise.all([
      engine.handlers.call('jobs.requeue', { id: bad.id }), engine.handlers.call('jobs.requeue', { id: bad.id }),
    ]);
    expect(first.ok).toBe(true);
    expect(second).toMatchObject({ ok: false, error: { code: 'conflict', message: 'census-bad.csv is being put back in the queue already' } });
    const requeued = (first as { result: JobView }).result;
    expect(requeued).toMatchObject({ name: 'census-bad.csv', path: join(watched, 'census-bad.csv'), finished: false });
    expect(existsSync(bad.archivedPath as string)).toBe(false);
    expect(await fails('jobs.requeue', { id: bad.id })).toMatchObject({ code: 'not_found' });
    expect((await ok('jobs.get', { id: bad.id })).archivedFileThere).toBe(false);
    const fixed = await until('the fixed file', async () => {
      const job = await ok('jobs.get', { id: requeued.id });
      return job.finished ? job : undefined;
    });
    expect(fixed.state).toBe('uploaded');

    const window = await ok('jobs.query', { outcomes: ['uploaded'], sort: { by: 'name', dir: 'asc' } });
    expect(window.items.map((j) => j.name)).toEqual(['census-bad.csv', 'census-good.csv']);
    expect((await ok('jobs.query', { outcomes: ['rejected'], finished: true })).total).toBe(1);
    expect(await ok('watch.stop')).toEqual({ folder: watched, state: 'stopped' });
    expect((await readdir(join(watched, 'rejected'))).sort()).toEqual(['census-bad.csv.error.txt']);
  }, 120_000);

  it('retries a job waiting on the network now', async () => {
    await ok('localServer.faults.set', { rules: [{ pathPrefix: '/law/api/v1/payroll-submissions', errorRate: 1 }] });
    await ok('watch.start');
    await writeFile(join(watched, 'census-wait.csv'), csvText('census', [censusRow(4)]));
    const waiting = await until('a waiting job', async () => (await ok('jobs.query', { states: ['waiting'], text: 'census-wait' })).items[0]);
    expect(waiting.lastError).toMatch(/injected fault/);
    await ok('localServer.faults.clear');
    const retried = await ok('jobs.retryNow', { id: waiting.id });
    expect(retried.nextAttemptAt).toBeLessThanOrEqual(Date.now());
    expect((await jobNamed('census-wait.csv')).state).toBe('uploaded');
    await ok('watch.stop');
  }, 120_000);

  it('sends batches: ok with the import id; problems by index and field, from the local check or the service', async () => {
    const sent = await ok('batches.send', { kind: 'census', records: [censusRow(10), censusRow(11)] });
    expect(sent).toMatchObject({ ok: true, records: 2, batch: { state: 'sent', kind: 'census' } });
    const local = await ok('batches.send', { kind: 'census', records: [censusRow(12), { ...censusRow(13), hireDate: '2020-02-30' }] });
    expect(local).toMatchObject({ ok: false, problems: [{ index: 1, field: 'hireDate', source: 'local' }] });
    expect(local.ok === false && local.batch).toBeUndefined();
    const service = await ok('batches.send', { kind: 'census', records: [censusRow(14), censusRow(14)] });
    expect(service).toMatchObject({ ok: false, problems: [{ index: 1, source: 'service' }], batch: { state: 'failed' } });
    const list = await ok('batches.list', { limit: 2 });
    expect(list.total).toBe(2);
    expect(list.items.map((b) => b.state)).toEqual(['failed', 'sent']);
  });

  it('registers a webhook, lists and redelivers deliveries, shows the request log and the faults', async () => {
    const set = await ok('localServer.webhook.set', { url: receiver.url });
    expect(set.secret).toMatch(/^whsec_/);
    expect(await ok('localServer.webhook.get')).toEqual({ url: receiver.url, secretSet: true });
    expect((await ok('localServer.state')).webhookUrl).toBe(receiver.url);
    await ok('batches.send', { kind: 'census', records: [censusRow(20)] });
    const delivered = await until('a delivery', async () => (await ok('deliveries.list', { status: 2 })).items[0]);
    expect(await ok('deliveries.get', { id: delivered.id })).toEqual(delivered);
    const again = await ok('deliveries.redeliver', { id: delivered.id });
    expect(again).toMatchObject({ type: 2, eventId: delivered.eventId });
    expect(await fails('deliveries.redeliver', { id: 99_999 })).toMatchObject({ code: 'not_found' });
    // The service's 404 for a number that is not the client's is the bridge's not_found, which no screen asks again.
    const unknown = await fails('deliveries.get', { id: 99_999 });
    expect(unknown).toMatchObject({ code: 'not_found', name: 'NotFoundError' });
    expect(unknown.message).toMatch(/^There is no delivery attempt 99999 for this client \(GET \/law\/api\/v1\/deliveries\/99999 failed: 404 /);

    // A delivery that fails after every retry is told to the clerk (the desktop app makes it an OS notification).
    let failedTry: { id: number } | undefined;
    const errors: string[] = [];
    const off = engine.session.on('error', (error) => errors.push(error.message));
    receiver.setFallback({ status: 500 });
    try {
      await ok('batches.send', { kind: 'census', records: [censusRow(21)] });
      const told = await until('the failed delivery to be told', () => Promise.resolve(errors.find((m) => /webhook delivery failed after every retry/.test(m))));
      expect(told).toMatch(/import\.processed event msg_\S+ never reached http:\/\/127\.0\.0\.1:\d+/);
      failedTry = (await ok('deliveries.list', { status: 3 })).items[0];
      expect(failedTry).toBeDefined();
    } finally {
      off();
      receiver.setFallback({ status: 200 });
    }

    const log = await ok('localServer.requestLog', { limit: 5 });
    expect(log.items.length).toBe(5);
    expect(log.items.every((entry) => entry.method.length > 0 && entry.status >= 100)).toBe(true);
    expect(await fails('localServer.faults.set', { rules: [{ pathPrefix: '/local/v1/x', errorRate: 1 }] })).toMatchObject({ code: 'invalid_argument', fields: [{ path: 'rules.0.pathPrefix' }] });
    expect(await ok('localServer.faults.set', { rules: [{ pathPrefix: '/law', latencyMs: 1 }] })).toEqual({ rules: [{ pathPrefix: '/law', latencyMs: 1 }] });
    expect(await ok('localServer.faults.list')).toEqual({ rules: [{ pathPrefix: '/law', latencyMs: 1 }] });
    expect(await ok('localServer.faults.clear')).toEqual({ rules: [] });
    expect(await ok('localServer.webhook.set', { url: null })).toEqual({ url: null, secretSet: false });
    // Without a webhook there is nowhere to send an event: a conflict that says what to do, and no new attempt. (The
    // other event's: the server sends one event again at most once every 5 seconds, and says so first.)
    const count = (await ok('deliveries.list', {})).items.length;
    const nowhere = await fails('deliveries.redeliver', { id: failedTry?.id });
    expect(nowhere).toMatchObject({ code: 'conflict' });
    expect(nowhere.message).toMatch(/^No webhook address is registered.*Register one on the Local server screen first\.$/);
    expect((await ok('deliveries.list', {})).items).toHaveLength(count);
  }, 60_000);

  it('checks a webhook address as the server\'s own PUT does: this computer only, stored as normalised', async () => {
    // The built-in server sends only to this computer: a remote address is refused before it is stored.
    const remote = await fails('localServer.webhook.set', { url: 'http://payroll.example.com/hook' });
    expect(remote).toMatchObject({ code: 'invalid_argument', fields: [{ path: 'url' }] });
    expect(remote.fields?.[0]?.message).toMatch(/must be on this computer/);
    expect(remote.message).not.toMatch(/--allow-remote-webhooks/);
    const fragment = await fails('localServer.webhook.set', { url: 'http://127.0.0.1:9/hook#part' });
    expect(fragment).toMatchObject({ code: 'invalid_argument', fields: [{ path: 'url' }] });
    expect(fragment.fields?.[0]?.message).toMatch(/fragment/);
    expect(await ok('localServer.webhook.get')).toEqual({ url: null, secretSet: false });
    const set = await ok('localServer.webhook.set', { url: 'HTTP://LOCALHOST:80/a/../hook' });
    expect(set).toMatchObject({ url: 'http://localhost/hook', secretSet: true });
    expect(await ok('localServer.webhook.get')).toEqual({ url: 'http://localhost/hook', secretSet: true });
    expect(await ok('localServer.webhook.set', { url: null })).toEqual({ url: null, secretSet: false });
  });

  it('stops the local server; its client survives a restart in the keychain', async () => {
    const before = await ok('localServer.credentials');
    expect(await ok('localServer.stop')).toEqual({ running: false });
    expect(await fails('localServer.webhook.get')).toMatchObject({ code: 'conflict' });
    await ok('localServer.start', {});
    expect(await ok('localServer.credentials')).toEqual(before);
    expect((await ok('batches.list', {})).total).toBeGreaterThan(0);
  }, 60_000);
});
