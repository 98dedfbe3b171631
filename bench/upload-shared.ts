/**
 * Two desktops, one export folder: the real `payroll-uploader watch` processes (watcher, claims, queue) on one folder
 * of small files, against one uploader alone on the same number of files, in the same run. Each file must reach the
 * service exactly once (checked in the server's import list) and end in uploaded/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Figure } from './bench-kit';
import { writeCensusCsv } from './bench-kit';
import { CLIENT, type BenchServer } from './upload-server';

const CLI = join(import.meta.dirname, '../bin/payroll-uploader.js');

type Imports = { fileName?: string; status: string }[];

async function startWatch(folder: string, dataDir: string, url: string): Promise<ChildProcess> {
  await mkdir(dataDir, { recursive: true });
  // The shortest stability wait the settings allow, so the figure is about uploading rather than waiting.
  await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ stabilityMs: 100, sweepIntervalMs: 5_000, preflight: 'warn' }));
  const child = spawn(process.execPath, [CLI, 'watch', folder, '--base-url', url], {
    env: { ...process.env, PAYROLL_DATA_DIR: dataDir, PAYROLL_CLIENT_ID: CLIENT.id, PAYROLL_CLIENT_SECRET: CLIENT.secret, PAYROLL_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Ready once the queue holds its lock and the watcher had a moment to list the (empty) folder.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const lock = await readFile(join(dataDir, 'upload-queue.lock'), 'utf8').catch(() => '');
    if (lock.includes(String(child.pid))) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('an uploader did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1_000));
  return child;
}

async function archivedCount(folder: string): Promise<number> {
  const entries = await readdir(join(folder, 'uploaded'), { recursive: true }).catch(() => []);
  return entries.filter((name) => String(name).endsWith('.csv')).length;
}

/** Milliseconds from dropping `count` files until all are in uploaded/, with `uploaders` processes on the folder. */
async function timeToArchived(dir: string, name: string, url: string, uploaders: number, count: number, firstRow: number): Promise<number> {
  const folder = join(dir, `${name}-folder`);
  const staging = join(dir, `${name}-staging`);
  await mkdir(folder, { recursive: true });
  await mkdir(staging, { recursive: true });
  const files = Array.from({ length: count }, (_, i) => `${name}-census-${String(i).padStart(4, '0')}.csv`);
  for (let i = 0; i < count; i += 50) {
    await Promise.all(files.slice(i, i + 50).map((f, k) => writeCensusCsv(join(staging, f), 5 * 1024, firstRow + (i + k) * 40)));
  }
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < uploaders; i++) children.push(await startWatch(folder, join(dir, `${name}-data-${i}`), url));
    const start = performance.now();
    // Dropped as an export tool does: written elsewhere, renamed in.
    const { rename } = await import('node:fs/promises');
    await Promise.all(files.map((f) => rename(join(staging, f), join(folder, f))));
    const deadline = Date.now() + 600_000;
    while ((await archivedCount(folder)) < count) {
      if (Date.now() > deadline) throw new Error(`${name}: only ${await archivedCount(folder)} of ${count} files archived after 10 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return performance.now() - start;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)))));
  }
}

/** Every file of the run is in the server's import list once, uploaded (not AWAITING_UPLOAD). */
async function checkExactlyOnce(url: string, token: string, name: string, count: number): Promise<void> {
  const res = await fetch(`${url}/local/v1/imports?limit=1000&source=file`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET /local/v1/imports: ${res.status}`);
  const items = (await res.json()) as Imports;
  const mine = items.filter((item) => item.fileName?.startsWith(`${name}-`) && item.status !== 'AWAITING_UPLOAD');
  const names = new Set(mine.map((item) => item.fileName));
  if (mine.length !== count || names.size !== count) {
    throw new Error(`${name}: the service holds ${mine.length} uploads of ${names.size} distinct files, expected each of ${count} exactly once`);
  }
}

export async function sharedFolderFigure(dir: string, server: BenchServer, token: string, count: number): Promise<Figure> {
  const aloneMs = await timeToArchived(dir, 'alone', server.url, 1, count, 50_000_000);
  await checkExactlyOnce(server.url, token, 'alone', count);
  await server.quiet();
  const pairMs = await timeToArchived(dir, 'pair', server.url, 2, count, 60_000_000);
  await checkExactlyOnce(server.url, token, 'pair', count);
  await server.quiet();
  return {
    name: `two uploaders on one folder, ${count} small CSVs to all archived (each uploaded once), ms`, ours: pairMs.toFixed(0),
    baseline: `${aloneMs.toFixed(0)} (one uploader alone)`, ratio: pairMs / aloneMs, target: '<= 1.2', pass: pairMs / aloneMs <= 1.2,
  };
}
