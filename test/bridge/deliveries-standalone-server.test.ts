/**
 * Deliveries with a local server run on its own (`npm run server`, the README's way to try the app) and the Local test
 * server environment pointing at it: "Send again now" sends the event again through that server, with the
 * environment's own client, as the list is read; the server's refusals, and the failures to list the deliveries, are
 * said in the clerk's words. Before, the core redelivered only through the server built into the app, and said
 * "Redelivery is a feature of the local server: start it and use the Local profile" to a clerk who was doing just that;
 * a wrong secret read "POST /oauth/v1/access-token failed: 401 Unauthorized: …" and a stopped server "cannot reach
 * GET http://…/law/api/v1/deliveries: connection refused".
 * Real session, keychain, standalone local server and webhook receiver, through the bridge handlers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../shared';
import type { BridgeMethodName } from '../../shared/bridge';
import { censusRow } from '../helpers/csv-fixtures';
import { startKeyring, type KeyringHandle } from '../helpers/keyring';
import { TEST_CLIENT, api, eventually, getToken, startTestServer, type TestServer } from '../helpers/local-server';
import { callFails, callOk, startUiEngine, type UiEngine } from '../helpers/ui-engine';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

describe('deliveries with a local server run on its own', () => {
  let keyring: KeyringHandle;
  let server: TestServer;
  let receiver: WebhookReceiver;
  let engine: UiEngine;

  const ok = <M extends BridgeMethodName>(method: M, request?: unknown) => callOk(engine, method, request);
  const fails = (method: BridgeMethodName, request?: unknown) => callFails(engine, method, request);
  /** The delivered first try of the event of the import a census batch sent now makes. */
  const deliveredTry = async (): Promise<DeliveryAttempt> => {
    const before = new Set((await ok('deliveries.list', {})).items.map((d) => d.eventId));
    const sent = await ok('batches.send', { kind: 'census', records: [censusRow(Math.floor(Math.random() * 1e6))] });
    expect(sent).toMatchObject({ ok: true });
    return eventually(async () => (await ok('deliveries.list', { status: 2 })).items.find((d) => d.type === 1 && !before.has(d.eventId)), 30_000);
  };

  beforeAll(async () => {
    keyring = await startKeyring();
    Object.assign(process.env, keyring.env);
    server = await startTestServer({ retryDelaysMs: [50, 50, 50, 50, 50], deliveryTimeoutMs: 20_000 });
    receiver = await startWebhookReceiver();
    const token = await getToken(server.url);
    expect((await api(server.url, token, 'PUT', '/local/v1/webhook', { url: receiver.url })).status).toBe(200);
    engine = await startUiEngine({ settings: { activeProfile: 'local', profiles: { local: { baseUrl: server.url } } } });
    await ok('credentials.set', { profile: 'local', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await receiver?.close();
    // The second test stops it already.
    await server?.stop().catch(() => undefined);
    await keyring?.stop();
  });

  it('sends an event again through that server, and says why not when it cannot', async () => {
    // The built-in server is not running: the Local test server environment names the one run on its own.
    expect((await ok('localServer.state')).running).toBe(false);
    const delivered = await deliveredTry();
    const received = receiver.requests.length;

    const again = await ok('deliveries.redeliver', { id: delivered.id });
    expect(again).toMatchObject({ type: 2, eventId: delivered.eventId });
    // Asked again at once, before anything else is awaited (the server's limit counts 5 s of real time from the
    // first ask): the server's 429 is said with its wait, and nothing is sent.
    const tooSoon = await fails('deliveries.redeliver', { id: delivered.id });
    expect(tooSoon.code).toBe('conflict');
    expect(tooSoon.message).toMatch(
      new RegExp(`^The event of delivery ${delivered.id} was sent again only a moment ago, and the local test server sends an event again at most once every 5 seconds: wait [1-5] seconds?, then press Send again now once more\\.$`),
    );

    await eventually(() => (receiver.requests.length > received ? true : undefined));
    expect(receiver.requests.at(-1)?.headers['webhook-id']).toBe(delivered.eventId);
    await eventually(async () => ((await ok('deliveries.get', { id: again.id })).status === 2 ? true : undefined));
    await server.ctx.deliveries.idle();
    expect(receiver.requests.length).toBe(received + 1);

    const unknown = await fails('deliveries.redeliver', { id: 99_999 });
    expect(unknown).toMatchObject({ code: 'not_found', name: 'NotFoundError' });
    expect(unknown.message).toBe(
      'There is no delivery number 99999 for your client at the local test server, so there is nothing to send again (it said: no delivery attempt with id 99999).',
    );

    // Another event's, once the client's webhook is removed: nowhere to send it, and the way to register one with
    // that server (not the Local server screen, which runs the app's own).
    const other = await deliveredTry();
    const token = await getToken(server.url);
    expect((await api(server.url, token, 'DELETE', '/local/v1/webhook')).status).toBe(204);
    const nowhere = await fails('deliveries.redeliver', { id: other.id });
    expect(nowhere.code).toBe('conflict');
    expect(nowhere.message).toBe(
      'No webhook address is registered, so there is nowhere to send this event again: nothing was sent. '
        + `Register one with the local test server at ${server.url} first: start it with --webhook-url and the address, `
        + 'or register the address with its PUT /local/v1/webhook.',
    );
    expect((await api(server.url, token, 'PUT', '/local/v1/webhook', { url: receiver.url })).status).toBe(200);

    // Another environment active: said with the name the screens use.
    await ok('profile.switch', { profile: 'sandbox' });
    const elsewhere = await fails('deliveries.redeliver', { id: delivered.id });
    expect(elsewhere.code).toBe('unsupported');
    expect(elsewhere.message).toBe(
      'Sending a delivery again is a feature of the local test server: choose the Local test server environment in Settings to use it',
    );
    await ok('profile.switch', { profile: 'local' });
  }, 120_000);

  it('says why the deliveries cannot be listed in words: a wrong secret, a server that is not running', async () => {
    await ok('credentials.set', { profile: 'local', clientId: TEST_CLIENT.id, clientSecret: 'not-the-secret-at-all' });
    const refused = await fails('deliveries.list', {});
    expect(refused).toMatchObject({ code: 'service_error', status: 401 });
    expect(refused.message).toMatch(/^The service did not accept this client ID and secret \(it said: .+\)\. Check both with your service provider, type them again and test once more\.$/);
    expect(refused.message).not.toMatch(/oauth|POST|trace id/);
    await ok('credentials.set', { profile: 'local', clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret });
    expect((await ok('deliveries.list', {})).items.length).toBeGreaterThan(0);

    // A local server that is not running (its address, nothing listening): the remedy is the server or the address.
    const port = new URL(server.url).port;
    await server.stop();
    const down = await fails('deliveries.list', {});
    expect(down.code).toBe('network_error');
    expect(down.message).toBe(
      `Nothing answers at http://127.0.0.1:${port} (connection refused). Check the base URL, and that the service is running, then try again.`,
    );
    const downOne = await fails('deliveries.get', { id: 1 });
    expect(downOne.message).toMatch(/^Nothing answers at /);
    const downAgain = await fails('deliveries.redeliver', { id: 1 });
    expect(downAgain.message).toMatch(/^Nothing answers at /);
  }, 120_000);
});
