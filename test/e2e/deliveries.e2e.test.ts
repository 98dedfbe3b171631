/**
 * End to end in Debian's Chromium: the Local server screen registers a real webhook receiver that refuses the first
 * try; after a batch is sent, the Deliveries screen shows the failed try and the retry that got through, without a
 * reload. A fault rule added on the Local server screen makes the server answer 503, seen in its request log; another
 * with a processing delay keeps a census batch QUEUED until the rules are removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, getToken } from '../helpers/local-server';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { checkZoom } from './screens-a-kit';
import { allAxeViolations } from './axe-kit';
import { openScreen, screenshots, startScreensWorld, type ScreensWorld } from './screens-b-kit';

type LocalServerState = { running: boolean; url?: string };
type ImportStatus = { status: string; acceptedRecords?: number };

describe('Deliveries and the local server in Chromium', () => {
  let world: ScreensWorld;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ status: 204 });
    receiver.script({ status: 500 });
    world = await startScreensWorld();
  }, 180_000);

  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  /** The embedded server's address and a token of the app's own client: fault rules apply to its traffic only. */
  const appClient = async () => {
    const { url } = await world.bridge<LocalServerState>('localServer.state');
    const { clientId, clientSecret } = await world.bridge<{ clientId: string; clientSecret: string }>('localServer.credentials');
    return { url: url!, token: await getToken(url!, { id: clientId, secret: clientSecret }) };
  };

  it('registers the webhook on the Local server screen, with the client credentials to copy', async () => {
    const { page } = world;
    await openScreen(page, 'Local server');
    const server = page.getByRole('region', { name: 'Server' });
    await server.getByText('Running').waitFor();
    const state = await world.bridge<LocalServerState>('localServer.state');
    await server.getByText(state.url!).waitFor();
    const creds = page.getByRole('region', { name: 'Client credentials' });
    await creds.getByRole('button', { name: 'Copy client secret' }).waitFor();

    const hook = page.getByRole('region', { name: 'Webhook' });
    await hook.getByText('None registered yet.').waitFor();
    await hook.getByRole('textbox', { name: 'Webhook address' }).fill(receiver.url);
    await hook.getByRole('button', { name: 'Save webhook' }).click();
    await hook.getByText('Your new signing secret. Copy it now: it is not shown again.').waitFor();
    expect(await hook.getByText(/^whsec_/).count()).toBe(1);
    await screenshots(page, 'local-server-webhook');
    expect(await allAxeViolations(page)).toEqual([]);
    expect(await world.bridge('localServer.webhook.get')).toEqual({ url: receiver.url, secretSet: true });
  }, 120_000);

  it('shows a failed delivery and the retry that got through', async () => {
    const { page } = world;
    await openScreen(page, 'Deliveries');
    await page.getByRole('heading', { name: 'No deliveries yet' }).waitFor();
    await screenshots(page, 'deliveries-empty');
    expect(await allAxeViolations(page)).toEqual([]);

    const sent = await world.bridge<{ ok: boolean }>('batches.send', {
      kind: 'census',
      records: [{ lastName: 'Okafor', firstName: 'Chidi', employeeRegistration: 'D-1', hireDate: '2026-03-02', employeeStatus: 'ACTIVE' }],
    });
    expect(sent.ok).toBe(true);

    // No reload: the screen refreshes itself while it is open.
    const table = page.getByRole('table', { name: 'Delivery tries, newest first' });
    const row = (type: string, status: string) => table.getByRole('row').filter({ hasText: type }).filter({ hasText: status });
    await row('Retry', 'Delivered').waitFor({ timeout: 60_000 });
    const failed = row('New', 'Failed');
    await failed.waitFor();
    // As shown: the status's cell holds the HTTP code too, shown under it only in a narrow window (delivery-table.tsx).
    const cells = async (r: ReturnType<typeof row>) => (await r.getByRole('cell').allInnerTexts()).slice(2, 7);
    expect(await cells(failed)).toEqual(['New', 'Failed', '500', expect.stringMatching(/ms|s$/), '0']);
    expect(await cells(row('Retry', 'Delivered'))).toEqual(['Retry', 'Delivered', '204', expect.stringMatching(/ms|s$/), '1']);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[0]!.headers['webhook-id']).toBe(receiver.requests[1]!.headers['webhook-id']);
    await screenshots(page, 'deliveries-failed-then-retried');
    await checkZoom(page, 'deliveries-failed-then-retried');
    expect(await allAxeViolations(page)).toEqual([]);

    // The failed try in full, and sent again by hand.
    const failedId = (await failed.getByRole('rowheader').textContent())!;
    await failed.getByRole('button', { name: `Details of delivery ${failedId}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delivery ${failedId}` });
    await dialog.getByRole('cell', { name: '500', exact: true }).waitFor();
    await dialog.getByRole('cell', { name: 'The endpoint answered 500; only a 2xx answer counts as delivered.' }).waitFor();
    await screenshots(page, 'deliveries-detail');
    expect(await allAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Send again now' }).click();
    await dialog.getByRole('status').filter({ hasText: /^Sent again as delivery \d+\.$/ }).waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await table.getByRole('row').filter({ hasText: 'Retry' }).nth(1).waitFor({ timeout: 30_000 });
    expect(world.errors).toEqual([]);
  }, 180_000);

  it('adds a fault rule whose 503 shows in the request log, then removes it', async () => {
    const { page } = world;
    await openScreen(page, 'Local server');
    const faults = page.getByRole('region', { name: 'Fault injection' });
    await faults.getByRole('textbox', { name: 'Path starts with' }).fill('/law/api/v1/payroll-submissions');
    await faults.getByRole('textbox', { name: 'Error rate (%)' }).fill('100');
    await faults.getByRole('button', { name: 'Add rule' }).click();
    const rule = faults.getByRole('table', { name: 'Fault rules' }).getByRole('row').filter({ hasText: '/law/api/v1/payroll-submissions' });
    await rule.waitFor();
    expect((await rule.getByRole('cell').allTextContents()).slice(0, 5)).toEqual(['—', '100 %', '503', '—', '—']);

    const { url, token } = await appClient();
    const answer = await fetch(`${url}/law/api/v1/payroll-submissions`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(503);
    const log = page.getByRole('table', { name: 'Requests, newest first' });
    await log.getByRole('row').filter({ hasText: '/law/api/v1/payroll-submissions' }).filter({ hasText: '503' }).waitFor({ timeout: 30_000 });
    await screenshots(page, 'local-server-faults-and-log');
    await checkZoom(page, 'local-server-faults-and-log');
    expect(await allAxeViolations(page)).toEqual([]);

    await faults.getByRole('button', { name: 'Remove the rule for /law/api/v1/payroll-submissions' }).click();
    await faults.getByText('No fault rules: the local server answers normally.').waitFor();
    expect(await world.bridge('localServer.faults.list')).toEqual({ rules: [] });
    expect(world.errors).toEqual([]);
  }, 120_000);

  it('keeps a census batch QUEUED under a processing delay rule until the rules are removed', async () => {
    const { page } = world;
    await openScreen(page, 'Local server');
    const faults = page.getByRole('region', { name: 'Fault injection' });
    await faults.getByText('No fault rules: the local server answers normally.').waitFor();
    await faults.getByRole('textbox', { name: 'Path starts with' }).fill('/law/api/v1/census');
    await faults.getByRole('textbox', { name: 'Processing delay (ms)' }).fill('600000');
    await faults.getByRole('button', { name: 'Add rule' }).click();
    const rule = faults.getByRole('table', { name: 'Fault rules' }).getByRole('row').filter({ hasText: '/law/api/v1/census' });
    await rule.waitFor();
    expect((await rule.getByRole('cell').allTextContents()).slice(0, 5)).toEqual(['—', '—', '—', '—', '600000']);
    expect(await world.bridge('localServer.faults.list')).toEqual({ rules: [{ pathPrefix: '/law/api/v1/census', processingDelayMs: 600_000 }] });

    // The app's own batch: a batch this small is otherwise processed in the very write that records it.
    const sent = await world.bridge<{ ok: boolean; importId: string }>('batches.send', {
      kind: 'census',
      records: [{ lastName: 'Adeyemi', firstName: 'Tola', employeeRegistration: 'D-2', hireDate: '2026-03-02', employeeStatus: 'ACTIVE' }],
    });
    expect(sent.ok).toBe(true);
    const { url, token } = await appClient();
    const status = async () => {
      const answer = await api(url, token, 'GET', `/local/v1/imports/${sent.importId}`);
      expect(answer.status).toBe(200);
      return answer.body as ImportStatus;
    };
    expect((await status()).status).toBe('QUEUED');
    await screenshots(page, 'local-server-processing-delay');
    await checkZoom(page, 'local-server-processing-delay');
    expect(await allAxeViolations(page)).toEqual([]);
    expect((await status()).status).toBe('QUEUED');

    await faults.getByRole('button', { name: 'Remove all rules' }).click();
    await faults.getByText('No fault rules: the local server answers normally.').waitFor();
    const done = await eventually(async () => {
      const now = await status();
      return now.status === 'QUEUED' || now.status === 'PROCESSING' ? undefined : now;
    }, 60_000);
    expect(done).toMatchObject({ status: 'PROCESSED', acceptedRecords: 1 });
    expect(world.errors).toEqual([]);
  }, 180_000);
});
