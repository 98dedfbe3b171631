/**
 * `npm run bench:server`: the local server's speed and memory, each figure against a baseline measured
 * in the same run on the same machine.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import autocannon from 'autocannon';
import { parse } from 'csv-parse';
import Fastify from 'fastify';
import { SCOPES } from '../shared';
import { createLogger } from '../electron/lib/logger';
import { getImport } from '../electron/server/db/imports-repo';
import { startServer } from '../electron/server/server';
import type { Figure } from './bench-kit';
import { censusRecord, exec, mb, median, peakRss, printFigures, timed, writeCensusCsv } from './bench-kit';

const CLIENT = { id: 'bench', secret: 'bench-secret-0123456789' };
const quiet = createLogger('bench', () => undefined);

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/oauth/v1/access-token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function requestsPerSecond(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const run = (duration: number) => autocannon({ url, method: 'POST', headers, body, connections: 10, duration });
  await run(1); // warm-up
  const result = await run(5);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'payroll-bench-'));
  const figures: Figure[] = [];
  const server = await startServer({ dataDir: join(dir, 'data'), port: 0, clients: [{ ...CLIENT, scopes: [...SCOPES] }], logger: quiet });
  const bare = Fastify();
  bare.post('/bare', async (_req, reply) => reply.code(201).send({ id: 'x', status: 'QUEUED', records: 1, receivedAt: new Date().toISOString() }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  try {
    const bearer = await token(server.url);
    const json = { 'content-type': 'application/json' };

    // 1. Authenticated 1-record census POSTs per second vs a bare Fastify route.
    const one = JSON.stringify([censusRecord(1)]);
    const bareRps = await requestsPerSecond(`http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare`, json, one);
    const ourRps = await requestsPerSecond(`${server.url}/law/api/v1/census`, { ...json, authorization: `Bearer ${bearer}` }, one);
    figures.push({ name: 'authenticated 1-record census POSTs/s', ours: ourRps.toFixed(0), baseline: `${bareRps.toFixed(0)} (bare Fastify)`, ratio: ourRps / bareRps, target: '>= 0.6', pass: ourRps / bareRps >= 0.6 });
    await server.ctx.processor.idle();

    // 2. A 5 MB census batch: median time to the 201 vs JSON.parse of the same bytes.
    const records = [];
    let size = 2;
    for (let i = 0; size < 5 * 1024 * 1024 - 100 * 1024; i++) {
      const r = censusRecord(100_000 + i);
      size += JSON.stringify(r).length + 1;
      records.push(r);
    }
    records.pop();
    // Baseline and ours alternate, so both run under the same heap and machine conditions.
    const parseMs: number[] = [];
    const postMs: number[] = [];
    for (let i = 0; i < 9; i++) {
      const body = JSON.stringify(records.map((r) => ({ ...r, employeeRegistration: `${r.employeeRegistration}-${i}` })));
      parseMs.push((await timed(() => JSON.parse(body) as unknown)).ms);
      const { ms, value } = await timed(() => fetch(`${server.url}/law/api/v1/census`, { method: 'POST', headers: { ...json, authorization: `Bearer ${bearer}` }, body }));
      if (value.status !== 201) throw new Error(`5 MB batch: ${value.status} ${await value.text()}`);
      postMs.push(ms);
      await server.ctx.processor.idle();
    }
    const postMedian = median(postMs);
    figures.push({ name: `5 MB census batch (${records.length} records), median ms to 201`, ours: postMedian.toFixed(1), baseline: `${median(parseMs).toFixed(1)} (JSON.parse)`, ratio: postMedian / median(parseMs), target: '<= 3', pass: postMedian / median(parseMs) <= 3 });

    // 3. A 100 MB upload PUT vs curl -T of the same file to a bare streaming sink.
    const file = join(dir, 'census-100mb.csv');
    const rows = await writeCensusCsv(file, 100 * 1024 * 1024 - 1024);
    const md5 = (await exec('md5sum', [file])).stdout.slice(0, 32);
    const sink = createServer((req, res) => {
      pipeline(req, createWriteStream(join(dir, 'sink.bin'))).then(() => res.end('ok'), () => res.end('error'));
    });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    const curl = async (url: string) =>
      Number((await exec('curl', ['-s', '-f', '-o', '/dev/null', '-w', '%{time_total}', '-T', file, '-H', 'Content-Type: text/csv', url])).stdout) * 1000;
    const sinkMs = median([await curl(`http://127.0.0.1:${(sink.address() as { port: number }).port}/`), await curl(`http://127.0.0.1:${(sink.address() as { port: number }).port}/`)]);
    sink.close();
    const grants = await fetch(`${server.url}/law/api/v1/payroll-submissions`, {
      method: 'POST', headers: { ...json, authorization: `Bearer ${bearer}` },
      body: JSON.stringify([{ fileType: '1', referenceDate: '2026-03-31T00:00:00Z', checksum: md5, fileName: 'census-100mb.csv' }]),
    });
    if (grants.status !== 201) throw new Error(`handshake: ${grants.status} ${await grants.text()}`);
    const [grant] = (await grants.json()) as { uploadUrl: string }[];
    const idleRss = process.memoryUsage.rss();
    const { peak, value: putMs } = await peakRss(() => curl(grant!.uploadUrl));
    const throughput = sinkMs / putMs;
    figures.push({ name: '100 MB upload PUT, time', ours: `${putMs.toFixed(0)} ms`, baseline: `${sinkMs.toFixed(0)} ms (curl -T to a bare sink)`, ratio: throughput, target: '>= 0.8 of the throughput', pass: throughput >= 0.8 });
    figures.push({ name: '100 MB upload PUT, server RSS growth', ours: mb(peak - idleRss), baseline: `${mb(idleRss)} idle`, ratio: (peak - idleRss) / (64 * 1024 * 1024), target: '<= 64 MB', pass: peak - idleRss <= 64 * 1024 * 1024 });

    // 4. CSV processing rows/s: the upload above is processed now; baseline: bare csv-parse of the same file.
    const importId = (server.ctx.db.prepare('SELECT import_id FROM files WHERE checksum = ?').get(md5.toLowerCase()) as { import_id: string }).import_id;
    const started = Date.now();
    for (;;) {
      const row = getImport(server.ctx.db, importId);
      if (row && (row.status === 'PROCESSED' || row.status === 'REJECTED')) {
        if (row.status !== 'PROCESSED' || row.accepted !== rows) throw new Error(`processing: ${row.status} ${row.accepted}/${rows} ${row.reason ?? ''}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const processMs = Date.now() - started;
    const { ms: bareCsvMs } = await timed(async () => {
      let n = 0;
      for await (const _record of createReadStream(file).pipe(parse({ delimiter: ',', from_line: 2 }))) n++;
      return n;
    });
    const ourRows = rows / (processMs / 1000);
    const bareRows = rows / (bareCsvMs / 1000);
    figures.push({ name: `CSV processing of ${rows} rows, rows/s`, ours: ourRows.toFixed(0), baseline: `${bareRows.toFixed(0)} (bare csv-parse)`, ratio: ourRows / bareRows, target: '>= 0.5', pass: ourRows / bareRows >= 0.5 });
  } finally {
    await bare.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  printFigures('Local server benchmark (ratios against baselines measured in this run)', figures);
}

main().catch((error: Error) => {
  process.stderr.write(`bench:server failed: ${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
