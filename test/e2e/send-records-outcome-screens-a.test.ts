/**
 * What Send records and History say of a batch that did not get through, in Chromium against browser mode with a
 * real core, service and keychain: a batch the service imported whose answer a real pass-through cut after the 201
 * is "Outcome unknown", with what may have happened and what to check before sending again (not "Failed"); a batch
 * refused at the door (nothing answers at the address) is "Failed" and said in words, not as the request the app
 * made; and a refusal (422) reads in History as it does on the form ("Person 2 …", the field's label).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callBridge } from '../helpers/ui-app';
import { signedInWorld, visit } from './screens-a-kit';

/** Forwards every request to the service; while `cut` is on, a census or receipt POST loses its answer on the way back. */
type PassThrough = { url: string; cut: boolean; cutAnswers: number[]; close(): Promise<void> };

async function startPassThrough(target: string): Promise<PassThrough> {
  const to = new URL(target);
  const pass: PassThrough = { url: '', cut: false, cutAnswers: [], close: () => Promise.resolve() };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const upstream = http.request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        answer.on('end', () => {
          if (pass.cut && req.method === 'POST' && req.url?.startsWith('/law/api/v1/')) {
            // The service has answered (and done the work); the clerk's app never hears of it.
            pass.cutAnswers.push(answer.statusCode ?? 0);
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
        });
      });
      upstream.on('error', () => req.socket.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pass.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pass.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return pass;
}

const RECEIPT = ['Berg', 'Ada', '123-45-6789', 'OUT-1', '2026-04-30', '250.00'];

describe('Send records and History: a batch whose outcome is unknown (browser mode, real service)', () => {
  const signedIn = signedInWorld({ stabilityMs: 300, sweepIntervalMs: 1000 });
  let pass: PassThrough;
  beforeAll(async () => {
    pass = await startPassThrough(signedIn.world.server.url);
  });
  afterAll(async () => {
    await pass?.close();
  });

  const useAddress = async (baseUrl: string) => {
    expect((await callBridge(signedIn.ui, 'settings.patch', { profiles: { local: { baseUrl } } })).status).toBe(200);
  };
  const receiptImports = () => (signedIn.world.server.ctx.db.prepare("SELECT count(*) AS n FROM imports WHERE kind = 'receipt'").get() as { n: number }).n;
  const openSentRecords = async () => {
    const { page } = signedIn;
    await page.getByRole('navigation').getByRole('link', { name: 'History' }).click();
    await page.getByText('Sent records', { exact: true }).first().click();
    return page.getByRole('table', { name: 'Batches of records sent' });
  };
  const openReceipts = async () => {
    const { page } = signedIn;
    await page.getByRole('navigation').getByRole('link', { name: 'Send records' }).click();
    await page.getByRole('tab', { name: 'Receipts' }).click();
    return page.getByRole('form', { name: 'Receipts' });
  };

  it('says the service may have imported a batch whose answer was lost, on the form and in History', async () => {
    const { page } = signedIn;
    await useAddress(pass.url);
    const form = await openReceipts();
    await form.getByRole('button', { name: 'Paste from a spreadsheet' }).click();
    await form.getByRole('textbox', { name: 'Rows copied from a spreadsheet' }).fill(RECEIPT.join('\t'));
    await form.getByRole('button', { name: 'Add these rows' }).click();
    pass.cut = true;
    await form.getByRole('button', { name: 'Send 1 receipt' }).click();
    const warning = form.getByRole('alert').filter({ hasText: 'This batch may have reached the service' });
    await warning.waitFor({ timeout: 60_000 });
    pass.cut = false;
    // The service took it: a second send would import it twice.
    expect(pass.cutAnswers).toEqual([201]);
    expect(receiptImports()).toBe(1);
    const said = await warning.innerText();
    expect(said).toContain(`The records went to the service at ${pass.url}, but no answer came back (connection reset).`);
    expect(said).toContain('The service may have imported the records: look at its imports, or ask your service provider, before sending them again');
    expect(said).toContain('Your records are still in the form.');
    expect(said).not.toMatch(/could not be sent|POST |law\/api/);
    await visit(page, 'send-records-outcome-unknown');

    const table = await openSentRecords();
    const row = table.getByRole('row').filter({ hasText: 'Receipt batch' }).first();
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[1]).toBe('Outcome unknown');
    expect(cells[6]).toContain('but no answer came back (connection reset). The service may have imported the records: look at its imports');
    expect(cells[6]).not.toMatch(/POST |law\/api/);
    await visit(page, 'history-outcome-unknown');
  }, 180_000);

  it('says a batch that never left was not sent, in words, and History calls it Failed', async () => {
    const { page } = signedIn;
    await useAddress('http://127.0.0.1:9');
    const form = await openReceipts();
    await form.getByRole('button', { name: 'Send 1 receipt' }).click();
    const notSent = form.getByRole('alert').filter({ hasText: 'The batch was not sent' });
    await notSent.waitFor({ timeout: 60_000 });
    const said = await notSent.innerText();
    expect(said).toContain('Nothing answers at http://127.0.0.1:9 (connection refused). Check the base URL, and that the service is running, then try again.');
    expect(said).toContain('Nothing was imported. Your records are still in the form.');
    expect(said).not.toMatch(/cannot reach|access-token/);
    // The batch before it may still be on the service: its warning stays, above, as the earlier one.
    expect(await form.getByRole('alert').filter({ hasText: 'An earlier batch may have reached the service' }).count()).toBe(1);
    expect(receiptImports()).toBe(1);
    await visit(page, 'send-records-not-sent');

    const table = await openSentRecords();
    const row = table.getByRole('row').filter({ hasText: 'Nothing answers at' }).first();
    await row.waitFor();
    expect((await row.getByRole('cell').allTextContents())[1]).toBe('Failed');
  }, 180_000);

  it('words a refusal in History as the form does: the records by their names, the field by its label', async () => {
    const { page } = signedIn;
    await useAddress(signedIn.world.server.url);
    await page.getByRole('navigation').getByRole('link', { name: 'Send records' }).click();
    await page.getByRole('tab', { name: 'JSON file' }).click();
    await page.getByRole('radio', { name: 'New hires and changes (census)' }).check();
    const person = (first: string) => ({ lastName: 'Doe', firstName: first, employeeRegistration: 'E-9', hireDate: '2026-03-02', employeeStatus: 'ACTIVE' });
    await page.getByRole('textbox', { name: 'Or paste JSON here' }).fill(JSON.stringify([person('Jane'), person('John')]));
    await page.getByRole('button', { name: 'Put the records in the form' }).click();
    await page.getByRole('button', { name: 'Send 2 people' }).click();
    await page.getByRole('region', { name: 'The service refused the batch' }).waitFor({ timeout: 60_000 });

    const table = await openSentRecords();
    const row = table.getByRole('row').filter({ hasText: 'Census batch' }).first();
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[1]).toBe('Failed');
    expect(cells[6]).toBe('Person 2: Employee registration E-9 is also given for Person 1; each must be different in one batch');
    await visit(page, 'history-refused-batch-words');
    expect(signedIn.errors).toEqual([]);
  }, 180_000);
});
