/**
 * --webhook-url/--webhook-secret across restarts on one data folder: a client's own registration (PUT or DELETE
 * /local/v1/webhook) survives a restart with the same flags, each client signs with its own secret, and flags that
 * reach a client for the first time replace a webhook it had, saying so.
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../shared';
import type { StartOptions } from '../server';
import type { TestServer } from '../../../test/helpers/local-server';
import { api, getToken, startTestServer, tempDir } from '../../../test/helpers/local-server';
import type { WebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { startWebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { attempts, importCensus, settledAttempts, verified } from '../../../test/helpers/delivery-test-kit';

const ACME = { id: 'acme', secret: 'acme-secret-value-1' };
const OTHER = { id: 'other', secret: 'other-secret-value-1' };
const cleanup: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.();
});

async function setup() {
  const receivers: WebhookReceiver[] = [];
  for (let i = 0; i < 3; i++) {
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    cleanup.push(() => receiver.close());
  }
  const dataDir = await tempDir();
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  /** Starts the server on the data folder with both clients and `webhook`; returns it and the lines it printed. */
  const start = async (webhook: StartOptions['webhook']) => {
    const notices: string[] = [];
    const server: TestServer = await startTestServer({
      dataDir, clients: [ACME, OTHER].map((c) => ({ ...c, scopes: [...SCOPES] })), notice: (line) => notices.push(line),
      ...(webhook ? { webhook } : {}),
    });
    cleanup.push(() => server.stop());
    return { server, notices };
  };
  return { receivers, start };
}

const printedSecret = (notices: string[], id: string) =>
  new RegExp(`webhook signing secret of client "${id}" \\(shown only this once\\): (whsec_\\S+)`).exec(notices.join('\n'))?.[1];

/** The event of one census import of `client`, as its receiver got it. */
async function deliverOne(server: TestServer, client: typeof ACME, receiver: WebhookReceiver) {
  const token = await getToken(server.url, client);
  const before = (await attempts(server.url, token)).length;
  await importCensus(server.url, token);
  const [attempt] = (await settledAttempts(server.url, token, before + 1)).slice(-1);
  expect(attempt).toMatchObject({ status: 2 });
  const request = receiver.requests.find((r) => r.headers['webhook-id'] === attempt?.eventId);
  if (!request) throw new Error(`the event of ${client.id} did not reach the expected receiver`);
  return request;
}

describe('webhook flags across restarts', () => {
  it('keep each client\'s own registration and secret when the flags are the same, and give each client its own secret', async () => {
    const { receivers: [shared, own], start } = await setup();
    const flags = { url: shared!.url };
    const first = await start(flags);

    // `other` registers its own receiver and gets its own secret.
    const otherToken = await getToken(first.server.url, OTHER);
    const put = await api(first.server.url, otherToken, 'PUT', '/local/v1/webhook', { url: own!.url });
    expect(put.status).toBe(200);
    const otherSecret = (put.body as { secret: string }).secret;
    await first.server.stop();

    // The same command line again: nothing is replaced and no secret is printed.
    const second = await start(flags);
    expect(second.notices.join('\n')).not.toContain('webhook signing secret');
    const reg = await api(second.server.url, await getToken(second.server.url, OTHER), 'GET', '/local/v1/webhook');
    expect(reg.body).toEqual({ url: own!.url, secretSet: true });
    expect(verified(otherSecret, await deliverOne(second.server, OTHER, own!))).toMatchObject({ type: 'import.processed' });

    // The first start gave each client a secret of its own, printed once with the client's name.
    const acmeSecret = printedSecret(first.notices, ACME.id);
    const otherFirst = printedSecret(first.notices, OTHER.id);
    expect(acmeSecret).toMatch(/^whsec_/);
    expect(otherFirst).toMatch(/^whsec_/);
    expect(otherFirst).not.toBe(acmeSecret);
    const acmeEvent = await deliverOne(second.server, ACME, shared!);
    expect(verified(acmeSecret!, acmeEvent)).toMatchObject({ type: 'import.processed' });
    // One client's secret never verifies another's events.
    expect(() => verified(otherSecret, acmeEvent)).toThrow();
    expect(() => verified(otherFirst!, acmeEvent)).toThrow();
  });

  it('apply changed flags to every client they configure, each keeping its own secret unless --webhook-secret is given', async () => {
    const { receivers: [shared, own, moved], start } = await setup();
    const first = await start({ url: shared!.url });
    const acmeSecret = printedSecret(first.notices, ACME.id) ?? '';
    const otherToken = await getToken(first.server.url, OTHER);
    const otherSecret = ((await api(first.server.url, otherToken, 'PUT', '/local/v1/webhook', { url: own!.url })).body as { secret: string }).secret;
    await first.server.stop();

    // A new --webhook-url: both clients move to it, with their own secrets; none is printed.
    const second = await start({ url: moved!.url });
    expect(second.notices.join('\n')).not.toContain('webhook signing secret');
    expect(verified(otherSecret, await deliverOne(second.server, OTHER, moved!))).toMatchObject({ type: 'import.processed' });
    expect(verified(acmeSecret, await deliverOne(second.server, ACME, moved!))).toMatchObject({ type: 'import.processed' });
    await second.server.stop();

    // --webhook-secret given: it is the secret of the clients the flags configure.
    const given = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;
    const third = await start({ url: moved!.url, secret: given });
    expect(verified(given, await deliverOne(third.server, ACME, moved!))).toMatchObject({ type: 'import.processed' });
    expect(verified(given, await deliverOne(third.server, OTHER, moved!))).toMatchObject({ type: 'import.processed' });
    expect(acmeSecret).not.toBe(given);
  });

  it('keep a removed registration removed while the flags stay the same', async () => {
    const { receivers: [shared], start } = await setup();
    const first = await start({ url: shared!.url });
    const otherToken = await getToken(first.server.url, OTHER);
    expect((await api(first.server.url, otherToken, 'DELETE', '/local/v1/webhook')).status).toBe(204);
    await first.server.stop();

    const second = await start({ url: shared!.url });
    const reg = await api(second.server.url, await getToken(second.server.url, OTHER), 'GET', '/local/v1/webhook');
    expect(reg.body).toEqual({ url: null, secretSet: false });
  });

  it('replace a webhook a client registered before they first reached it, say so, and give a client without one its own secret once', async () => {
    const { receivers: [, own, moved], start } = await setup();
    const first = await start(undefined);
    const put = await api(first.server.url, await getToken(first.server.url, ACME), 'PUT', '/local/v1/webhook', { url: own!.url });
    const acmeSecret = (put.body as { secret: string }).secret;
    await first.server.stop();

    // The first start with --webhook-url: the command line is the newest instruction, and it says what it changed.
    const second = await start({ url: moved!.url });
    const moves = await api(second.server.url, await getToken(second.server.url, ACME), 'GET', '/local/v1/webhook');
    expect(moves.body).toEqual({ url: moved!.url, secretSet: true });
    const otherSecret = printedSecret(second.notices, OTHER.id);
    expect(second.notices).toEqual([
      `webhook of client "acme" was ${own!.url}; --webhook-url sets it to ${moved!.url}, signed as before`,
      `webhook signing secret of client "other" (shown only this once): ${otherSecret}`,
    ]);
    expect(otherSecret).not.toBe(acmeSecret);
    const acmeEvent = await deliverOne(second.server, ACME, moved!);
    expect(verified(acmeSecret, acmeEvent)).toMatchObject({ type: 'import.processed' });
    expect(verified(otherSecret!, await deliverOne(second.server, OTHER, moved!))).toMatchObject({ type: 'import.processed' });
    expect(() => verified(otherSecret!, acmeEvent)).toThrow();
    await second.server.stop();

    // The same flags again: applied once, so nothing changes and nothing is printed.
    const third = await start({ url: moved!.url });
    expect(third.notices).toEqual([]);
    const reg = await api(third.server.url, await getToken(third.server.url, ACME), 'GET', '/local/v1/webhook');
    expect(reg.body).toEqual({ url: moved!.url, secretSet: true });
    expect(verified(acmeSecret, await deliverOne(third.server, ACME, moved!))).toMatchObject({ type: 'import.processed' });
  });

  it('change nothing for clients already at their URL (a data folder of an earlier version), and put a new --webhook-secret in place', async () => {
    const { receivers: [shared], start } = await setup();
    // As an earlier version left a data folder: the flags' URL stored for each client, with no record of the flags.
    const earlier = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const first = await start(undefined);
    for (const client of [ACME, OTHER]) {
      const token = await getToken(first.server.url, client);
      expect((await api(first.server.url, token, 'PUT', '/local/v1/webhook', { url: shared!.url, secret: earlier })).status).toBe(200);
    }
    await first.server.stop();

    const second = await start({ url: shared!.url });
    expect(second.notices).toEqual([]);
    expect(verified(earlier, await deliverOne(second.server, ACME, shared!))).toMatchObject({ type: 'import.processed' });
    await second.server.stop();

    const given = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
    const third = await start({ url: shared!.url, secret: given });
    expect(third.notices).toEqual([ACME, OTHER].map((c) => `webhook of client "${c.id}" stays ${shared!.url}; --webhook-secret replaces its signing secret`));
    expect(verified(given, await deliverOne(third.server, OTHER, shared!))).toMatchObject({ type: 'import.processed' });
  });

  it('put a --webhook-secret in place for a client at the flags\' URL with another secret the first time they reach it', async () => {
    const { receivers: [shared], start } = await setup();
    const first = await start(undefined);
    const put = await api(first.server.url, await getToken(first.server.url, ACME), 'PUT', '/local/v1/webhook', { url: shared!.url });
    expect(put.status).toBe(200);
    await first.server.stop();

    const given = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
    const second = await start({ url: shared!.url, secret: given });
    expect(second.notices).toEqual([`webhook of client "acme" stays ${shared!.url}; --webhook-secret replaces its signing secret`]);
    expect(verified(given, await deliverOne(second.server, ACME, shared!))).toMatchObject({ type: 'import.processed' });
  });
});
