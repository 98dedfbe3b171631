/**
 * `npm run bench:upload`: the uploader's speed and memory, each figure against a baseline measured in the same run
 * on the same machine. The local server runs as a child process, so this process's RSS is the uploader's own.
 * Times start when a file is handed to the queue as stable: the watcher's stability wait is not counted.
 */
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { checkCsv } from '../electron/core/queue/csv-check';
import { MAX_WARNINGS } from '../electron/core/queue/inspect-step';
import { readOnce } from '../electron/core/queue/read-once';
import type { Figure } from './bench-kit';
import { mb, median, peakRss, printFigures, timed, writeCensusCsv } from './bench-kit';
import { manualUploadMs, md5sumMs, shellLoopMs } from './upload-baseline';
import { fetchToken, startServerChild, type BenchServer } from './upload-server';
import { startUploader, type Phases } from './upload-uploader';
import { sharedFolderFigure } from './upload-shared';

const BIG_BYTES = 100 * 1024 * 1024 - 1024;
const SMALL_FILES = 1000;
const SMALL_ROWS = 40;
const MIB = 1024 * 1024;

/** Where the uploader's time went, printed under the table. */
const notes: string[] = [];
const note = (what: string, phases: Phases) =>
  notes.push(`- ${what}: the last file reached ${Object.entries(phases).map(([step, ms]) => `${step} at ${ms} ms`).join(', ')}`);

/** `count` small census files in `folder`, rows numbered from `firstRow` so every file has its own MD5. */
async function writeSmallFiles(folder: string, count: number, firstRow: number): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const paths = Array.from({ length: count }, (_, i) => join(folder, `census-small-${String(i).padStart(4, '0')}.csv`));
  for (let i = 0; i < count; i += 50) {
    // A small census file of SMALL_ROWS rows is about 6 KB; asking for 5 KB stops at the row that crosses it.
    await Promise.all(paths.slice(i, i + 50).map((p, k) => writeCensusCsv(p, 5 * 1024, firstRow + (i + k) * SMALL_ROWS)));
  }
  return paths;
}

async function bigFile(dir: string, name: string, firstRow: number): Promise<{ path: string; rows: number }> {
  const folder = join(dir, name);
  await mkdir(folder);
  const path = join(folder, `${name}-census.csv`);
  return { path, rows: await writeCensusCsv(path, BIG_BYTES, firstRow) };
}

async function rssFigure(dir: string, server: BenchServer, file: string): Promise<Figure> {
  const uploader = await startUploader(join(dir, 'uploader-rss'), server.url, 'warn');
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const idle = process.memoryUsage.rss();
    const { peak, value: { ms, phases } } = await peakRss(() => uploader.run([file]));
    note('100 MB, preflight warn', phases);
    const growth = peak - idle;
    return {
      name: `uploader peak RSS, 100 MB file to archived with preflight warn (${(ms / 1000).toFixed(1)} s)`,
      ours: `+${mb(growth)} (peak ${mb(peak)})`, baseline: `${mb(idle)} idle`, ratio: growth / (100 * MIB),
      target: 'grows <= 100 MB', pass: growth <= 100 * MIB,
    };
  } finally {
    await uploader.stop();
    await server.quiet();
  }
}

async function md5Figure(file: string, bytes: number): Promise<Figure> {
  // Warm-up: the page cache for both, and the JIT for ours (a running uploader has hashed files before).
  await md5sumMs(file);
  await readOnce(file, () => Promise.resolve());
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < 5; i++) {
    ours.push((await timed(() => readOnce(file, () => Promise.resolve()))).ms);
    theirs.push(await md5sumMs(file));
  }
  const ourRate = bytes / MIB / (median(ours) / 1000);
  const baseRate = bytes / MIB / (median(theirs) / 1000);
  return {
    name: 'MD5 of a 100 MB file (readOnce, the queue\'s read), MB/s', ours: ourRate.toFixed(0),
    baseline: `${baseRate.toFixed(0)} (md5sum)`, ratio: ourRate / baseRate, target: '>= 0.9', pass: ourRate / baseRate >= 0.9,
  };
}

async function preflightFigure(file: string): Promise<Figure> {
  const { ms: ourMs, value } = await timed(() =>
    readOnce(file, (input) => checkCsv(input, { kind: 'census', rowChecks: true, maxErrors: MAX_WARNINGS })));
  if (!value.csv.ok) throw new Error(`preflight refused the benchmark file: ${value.csv.reason}`);
  if (value.csv.rejectedRows > 0) throw new Error(`preflight found ${value.csv.rejectedRows} bad rows in the benchmark file`);
  const rows = value.csv.rows;
  const { ms: bareMs, value: bareRows } = await timed(async () => {
    let n = 0;
    for await (const _record of createReadStream(file).pipe(parse({ delimiter: ',', from_line: 2 }))) n++;
    return n;
  });
  if (bareRows !== rows) throw new Error(`csv-parse counted ${bareRows} rows, preflight ${rows}`);
  const ourRate = rows / (ourMs / 1000);
  const bareRate = rows / (bareMs / 1000);
  return {
    name: `preflight (hash + validate) of a 100 MB census CSV, ${rows} rows, rows/s`, ours: ourRate.toFixed(0),
    baseline: `${bareRate.toFixed(0)} (bare csv-parse)`, ratio: ourRate / bareRate, target: '>= 0.5', pass: ourRate / bareRate >= 0.5,
  };
}

async function bigUploadFigure(dir: string, server: BenchServer, token: string, ours: string, theirs: string): Promise<Figure> {
  const manualMs = await manualUploadMs(theirs, server.url, token);
  await server.quiet();
  const uploader = await startUploader(join(dir, 'uploader-big'), server.url, 'off');
  let ourMs: number;
  try {
    const run = await uploader.run([ours]);
    ourMs = run.ms;
    note('100 MB, preflight off', run.phases);
  } finally {
    await uploader.stop();
  }
  await server.quiet();
  return {
    name: 'one 100 MB file to archived, preflight off, ms', ours: ourMs.toFixed(0),
    baseline: `${manualMs.toFixed(0)} (md5sum + POST + curl -T)`, ratio: ourMs / manualMs, target: '<= 1.3', pass: ourMs / manualMs <= 1.3,
  };
}

async function smallFilesFigure(dir: string, server: BenchServer, token: string): Promise<Figure> {
  const ourFiles = await writeSmallFiles(join(dir, 'small-ours'), SMALL_FILES, 30_000_000);
  const shellDir = join(dir, 'small-shell');
  await writeSmallFiles(shellDir, SMALL_FILES, 40_000_000);
  const loopMs = await shellLoopMs(dir, shellDir, server.url, token);
  await server.quiet();
  const uploader = await startUploader(join(dir, 'uploader-small'), server.url, 'warn');
  let ourMs: number;
  try {
    const run = await uploader.run(ourFiles);
    ourMs = run.ms;
    note(`${SMALL_FILES} small files`, run.phases);
  } finally {
    await uploader.stop();
  }
  await server.quiet();
  return {
    name: `${SMALL_FILES} small census CSVs (${SMALL_ROWS} rows) dropped at once, to all archived, ms`, ours: ourMs.toFixed(0),
    baseline: `${loopMs.toFixed(0)} (bash loop: md5sum + curl POST + sed + curl -T)`, ratio: ourMs / loopMs,
    target: '<= 1', pass: ourMs / loopMs <= 1,
  };
}

/** `npm run bench:upload -- small md5` runs only those figures (rss, md5, preflight, big, small, shared); default all. */
const only = process.argv.slice(2);
const FIGURES = ['rss', 'md5', 'preflight', 'big', 'small', 'shared'];
const wanted = (figure: string) => only.length === 0 || only.includes(figure);

async function main(): Promise<void> {
  const unknown = only.filter((f) => !FIGURES.includes(f));
  if (unknown.length) throw new Error(`unknown figure(s) ${unknown.join(', ')}; choose from ${FIGURES.join(', ')}`);
  const dir = await mkdtemp(join(tmpdir(), 'payroll-upload-bench-'));
  let server: BenchServer | undefined;
  const figures: Figure[] = [];
  try {
    server = await startServerChild(join(dir, 'server-data'));
    const token = await fetchToken(server.url);
    if (wanted('rss')) {
      // Memory first, while the process holds nothing from earlier figures.
      const rss = await bigFile(dir, 'big-rss', 20_000_000);
      figures.push(await rssFigure(dir, server, rss.path));
    }
    if (wanted('md5') || wanted('preflight') || wanted('big')) {
      // Hashed and validated, then uploaded by us; a second file with other rows is uploaded by hand.
      const ours = await bigFile(dir, 'big-ours', 0);
      if (wanted('md5')) figures.push(await md5Figure(ours.path, (await stat(ours.path)).size));
      if (wanted('preflight')) figures.push(await preflightFigure(ours.path));
      if (wanted('big')) figures.push(await bigUploadFigure(dir, server, token, ours.path, (await bigFile(dir, 'big-theirs', 10_000_000)).path));
    }
    if (wanted('small')) figures.push(await smallFilesFigure(dir, server, token));
    if (wanted('shared')) figures.push(await sharedFolderFigure(dir, server, token, SMALL_FILES));
  } finally {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  }
  printFigures('Uploader benchmark (ratios against baselines measured in this run)', figures);
  process.stdout.write(`\nWhere the uploader's time went (from the moment the files were handed over as stable):\n${notes.join('\n')}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`bench:upload failed: ${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
