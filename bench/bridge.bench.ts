/**
 * `npm run bench:bridge`: the bridge in browser mode, each figure against a baseline measured in the same run.
 *  1. a bridge round trip (jobs window of 100) vs a bare fetch to a bare Node route answering the same JSON;
 *  2. a window of 100 out of 100,000 jobs, filtered by outcome and text, vs a bare SELECT of the same rows;
 *  3. 1,000 small files dropped at once: SSE messages vs job state changes, and progress per job per 100 ms.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { createBridgeHandlers, relayEvents } from '../electron/core/bridge';
import type { SecretStore } from '../electron/core/credentials';
import { openJournal } from '../electron/core/queue';
import { openJobQuery, type JobWindowQuery } from '../electron/core/queue/job-query';
import { createSession } from '../electron/core/session';
import { createSettingsStore } from '../electron/core/settings';
import { createLogger } from '../electron/lib/logger';
import { startUiServer } from '../electron/cli/ui/ui-server';
import type { Figure } from './bench-kit';
import { median, printFigures, timed } from './bench-kit';

const JOBS = 100_000;
const FILES = 1_000;
const quiet = createLogger('bench', () => undefined);

/**
 * The OS keychain is not what this measures, and a benchmark machine may have none: secrets live in this process's
 * memory for the run (the app's own local-server client is the only one asked for).
 */
function memorySecrets(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    get: (profile, id) => Promise.resolve(secrets.get(`${profile}/${id}`)),
    set: (profile, id, secret) => Promise.resolve(void secrets.set(`${profile}/${id}`, secret)),
    delete: (profile, id) => Promise.resolve(secrets.delete(`${profile}/${id}`)),
    status: () => Promise.resolve({ available: true }),
  };
}

const STATES = ['uploaded', 'uploaded', 'rejected', 'duplicate'] as const;

/** 100,000 finished jobs over 100 days: census and receipt files of a few payroll groups. */
function fillJournal(dataDir: string): void {
  const journal = openJournal(dataDir);
  const t0 = Date.UTC(2026, 0, 1);
  journal.transaction(() => {
    for (let i = 0; i < JOBS; i += 1) {
      const kind = i % 2 === 0 ? 'census' : 'receipts';
      const name = `${kind}-group${i % 37}-${String(i).padStart(6, '0')}.csv`;
      const at = t0 + i * 60_000;
      const job = journal.insertJob({ path: `/exports/${name}`, name, size: 2_000 + (i % 5_000), mtimeMs: at }, at, new Date(at).toISOString().slice(0, 10));
      journal.update(job.id, { state: STATES[i % STATES.length], fileType: i % 2 === 0 ? '1' : '2', archivedAt: at + 1_000, archivedPath: `/exports/archived/${name}` }, at);
    }
  });
  journal.close();
}

async function sequential(times: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 50; i += 1) await fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    samples.push((await timed(fn)).ms);
    // Lets timers and sockets run between samples (a synchronous query would otherwise starve them).
    await new Promise((resolve) => setImmediate(resolve));
  }
  return median(samples);
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-bridge-'));
  const watched = join(dataDir, 'watched');
  await mkdir(watched);
  const figures: Figure[] = [];
  try {
    process.stdout.write(`journal: ${JOBS} jobs...\n`);
    fillJournal(dataDir);
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ watchedFolder: watched, stabilityMs: 300, sweepIntervalMs: 1000 }));
    const session = createSession({ dataDir, settings: createSettingsStore({ cwd: dataDir }), secrets: memorySecrets(), env: {}, logger: quiet });
    const handlers = createBridgeHandlers({ session, logger: quiet });
    const ui = await startUiServer({ handlers, rendererDir: dataDir, logger: quiet, subscribe: (send) => relayEvents(session, send) });
    const call = async (method: string, request: unknown) => {
      const response = await fetch(`${ui.origin}/bridge/${method}`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ui.token}` }, body: JSON.stringify(request),
      });
      return response.text();
    };

    process.stdout.write('round trips...\n');
    // 1. Round trip of a window of 100 vs a bare route answering the same bytes.
    const answer = await call('jobs.query', { limit: 100 });
    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
    const ours = await sequential(500, () => call('jobs.query', { limit: 100 }));
    const base = await sequential(500, async () => (await fetch(bareUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"limit":100}' })).text());
    bare.close();
    // The transport alone: the same server in front of a handler that answers the same reply at once.
    const reply = JSON.parse(answer) as Awaited<ReturnType<typeof handlers.call>>;
    const transportOnly = await startUiServer({
      handlers: { call: () => Promise.resolve(reply), close: () => undefined }, rendererDir: dataDir, logger: quiet, subscribe: () => () => undefined,
    });
    const viaStub = await sequential(500, async () => (await fetch(`${transportOnly.origin}/bridge/jobs.query`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${transportOnly.token}` }, body: '{"limit":100}',
    })).text());
    await transportOnly.close();
    figures.push({ name: 'the transport alone (same server, a handler answering the same JSON)', ours: `${viaStub.toFixed(2)} ms`, baseline: `${base.toFixed(2)} ms (bare fetch)`, ratio: viaStub / base, target: '<= 2x', pass: viaStub / base <= 2 });
    const inProcess = await sequential(500, () => handlers.call('jobs.query', { limit: 100 }));
    process.stdout.write(`(the same call in-process, without HTTP: ${inProcess.toFixed(2)} ms; HTTP adds ${(ours - inProcess).toFixed(2)} ms)\n`);
    figures.push({ name: 'bridge round trip, jobs window of 100 (median)', ours: `${ours.toFixed(2)} ms`, baseline: `${base.toFixed(2)} ms (bare fetch)`, ratio: ours / base, target: '<= 2x', pass: ours / base <= 2 });

    process.stdout.write('window queries...\n');
    // 2. The window query itself vs a bare SELECT of the same rows, on the same file.
    const query: JobWindowQuery = { states: ['rejected'], text: 'group3-', sort: { by: 'foundAt', dir: 'desc' }, offset: 0, limit: 100 };
    const history = openJobQuery(session.journalPath);
    const db = new Database(session.journalPath, { readonly: true });
    const select = db.prepare("SELECT * FROM jobs WHERE state = 'rejected' AND name LIKE '%group3-%' ORDER BY created_at DESC, id DESC LIMIT 100");
    const ourRows = history.window(query);
    const bareRows = select.all() as { id: number }[];
    if (JSON.stringify(ourRows.items.map((j) => j.id)) !== JSON.stringify(bareRows.map((r) => r.id))) throw new Error('the window and the bare SELECT disagree');
    const cold = (await timed(() => openJobQuery(session.journalPath).window(query))).ms;
    const windowMs = await sequential(500, () => Promise.resolve(history.window(query)));
    const selectMs = await sequential(500, () => Promise.resolve(select.all()));
    figures.push({ name: `window of 100 of ${JOBS}, outcome + text (median; total ${ourRows.total})`, ours: `${windowMs.toFixed(3)} ms`, baseline: `${selectMs.toFixed(3)} ms (bare SELECT)`, ratio: windowMs / selectMs, target: '<= 2x', pass: windowMs / selectMs <= 2 });
    process.stdout.write(`(the first window after a change counts the total afresh: ${cold.toFixed(1)} ms, ${(cold / selectMs).toFixed(1)}x the bare SELECT; later windows reuse it until the journal changes)\n`);
    history.close();
    db.close();

    process.stdout.write(`${FILES} files...\n`);
    // 3. 1,000 small files at once through the embedded local server: what the page is sent.
    await session.startLocalServer();
    const stateChanges = { count: 0 };
    session.on('job', () => (stateChanges.count += 1));
    const progressAt = new Map<number, number[]>();
    const unsubscribe = relayEvents(session, (m) => {
      if (m.event === 'progress') progressAt.set(m.payload.id, [...(progressAt.get(m.payload.id) ?? []), performance.now()]);
    });
    const sentBefore = ui.events.sent();
    const stream = await fetch(`${ui.origin}/bridge/events`, { headers: { authorization: `Bearer ${ui.token}` } });
    const reader = stream.body?.getReader();
    void (async () => {
      for (;;) if ((await reader?.read())?.done !== false) break;
    })();
    await session.watch.start();
    const row = 'lastName,firstName,employeeRegistration,hireDate,employeeStatus,eligibleForBenefits,payCycle,periodsPerYear,grossAnnualSalary,salaryPerPeriod,standardHours,hourlyRate,timeType,payrollGroup,payrollArea,personnelSubArea\nDoe,Jane,E1,2020-01-15,ACTIVE,true,MONTHLY,12,54000.5,4500.04,40,25.96,FULL_TIME,G1,North,Plant 7\n';
    const queue = await session.queue();
    const { ms: dropMs } = await timed(async () => {
      await Promise.all(Array.from({ length: FILES }, (_, i) => writeFile(join(watched, `census-drop-${i}.csv`), row.replace('E1', `E${i}`))));
      const poll = openJobQuery(session.journalPath);
      const finished = () => poll.window({ finished: true, text: 'census-drop', sort: { by: 'foundAt', dir: 'desc' }, offset: 0, limit: 1 }).total;
      const deadline = Date.now() + 600_000;
      while (finished() < FILES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
      poll.close();
      await queue.idle();
    });
    await new Promise((r) => setTimeout(r, 300));
    unsubscribe();
    await reader?.cancel();
    const sent = ui.events.sent();
    const delta = (name: string) => (sent[name] ?? 0) - (sentBefore[name] ?? 0);
    const messages = Object.keys(sent).reduce((sum, name) => sum + delta(name), 0);
    let worst = 0;
    for (const times of progressAt.values()) {
      for (let i = 1; i < times.length; i += 1) worst = Math.max(worst, 100 / Math.max(1, (times[i] as number) - (times[i - 1] as number)));
    }
    const perJobWorst = progressAt.size === 0 ? 0 : worst;
    figures.push({
      name: `${FILES} files dropped at once (${(dropMs / 1000).toFixed(1)} s): SSE messages sent`,
      ours: `${messages} (job ${delta('job')}, progress ${delta('progress')}, result ${delta('result')}, other ${messages - delta('job') - delta('progress') - delta('result')})`,
      baseline: `${stateChanges.count} job state changes`, ratio: messages / stateChanges.count, target: '~1 + progress', pass: delta('job') === stateChanges.count,
    });
    figures.push({
      name: 'progress messages per job per 100 ms (worst gap seen)', ours: perJobWorst.toFixed(2), baseline: '1 per 100 ms', ratio: perJobWorst,
      target: '<= 1', pass: perJobWorst <= 1,
    });

    printFigures('bench:bridge (browser mode)', figures);
    await ui.close();
    handlers.close();
    await session.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
