/**
 * The local server's database damaged (its header overwritten) or emptied (0 bytes): the standalone server and the
 * built-in one of `watch --env local` refuse it in words that name the file and what to do, exit code 1, and leave it
 * as it is. An emptied database is never taken for a new one: a file already sent is not imported a second time.
 * Real CLI processes, real SQLite files.
 */
import { open, readFile, readdir, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runCli, startCli, uploaderEnv, type RunningCli } from '../helpers/cli';
import { spawnServerCli, tempDir } from '../helpers/local-server';
import { censusCsv } from '../helpers/queue-kit';

let dirs: string[] = [];
let started: RunningCli[] = [];
const folder = async () => {
  const dir = await tempDir('payroll-server-damaged-');
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  // A server that started after all (as before a damaged database was refused) is ended here.
  for (const each of started) each.child.kill('SIGKILL');
  started = [];
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

/** Overwrites the first 100 bytes (SQLite's header) with other bytes, as a disk fault or a stray write would. */
async function overwriteHeader(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.write(Buffer.alloc(100, 0x5a), 0, 100, 0);
  } finally {
    await handle.close();
  }
}

const damagedWords = (file: string, why: string, folderPath: string) => [
  `the local server's database ${file} is damaged (${why}), so the server cannot start.`,
  `stop every program that uses the data folder\n${folderPath} (payroll-uploader server, or the desktop app or a \`watch --env local\` for their built-in server),`,
  'move the damaged database aside by renaming, in that folder, payroll-local.sqlite -> payroll-local.sqlite.damaged-',
  'and start the server again: it makes a new, empty database.',
];

/** `payroll-uploader server` on `dataDir`, to its end: its exit code and what it wrote. */
async function serverRun(dataDir: string): Promise<{ code: number | null; stderr: string; listening: boolean }> {
  const running = startCli(['server', '--port', '0', '--data-dir', dataDir, '--client', 'acme:s3cret-value-1234']);
  started.push(running);
  let stdout = '';
  running.child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const code = await running.exited;
  return { code, stderr: running.stderr(), listening: /listening/.test(stdout) };
}

async function startedOnce(dataDir: string): Promise<void> {
  const server = await spawnServerCli(['--port', '0', '--data-dir', dataDir, '--client', 'acme:s3cret-value-1234']);
  expect(await server.stop()).toBe(0);
}

it('payroll-uploader server refuses a damaged database in words that name it and what to do, exit 1, leaving it as it is', async () => {
  const dataDir = await folder();
  await startedOnce(dataDir);
  const file = join(dataDir, 'payroll-local.sqlite');
  await overwriteHeader(file);
  const before = await readFile(file);

  const res = await serverRun(dataDir);
  expect(res.code, res.stderr).toBe(1);
  expect(res.listening).toBe(false);
  for (const words of damagedWords(file, 'file is not a database', dataDir)) expect(res.stderr).toContain(words);
  expect(await readFile(file)).toEqual(before);
}, 60_000);

it('payroll-uploader server refuses an emptied database rather than starting as a new server, exit 1', async () => {
  const dataDir = await folder();
  await startedOnce(dataDir);
  const file = join(dataDir, 'payroll-local.sqlite');
  await truncate(file, 0);

  const res = await serverRun(dataDir);
  expect(res.code, res.stderr).toBe(1);
  expect(res.listening).toBe(false);
  for (const words of damagedWords(file, 'it is empty: 0 bytes', dataDir)) expect(res.stderr).toContain(words);
  expect((await readFile(file)).length).toBe(0);
}, 60_000);

it('watch --env local refuses its built-in server\'s emptied database: a file already sent and put back is not imported again', async () => {
  const env = uploaderEnv(await folder());
  const dir = await folder();
  const content = censusCsv('emptied-server-db');
  await writeFile(join(dir, 'census-emptied.csv'), content);
  const first = await runCli(['watch', dir, '--env', 'local', '--once'], env);
  expect(first.code, first.stderr).toBe(0);
  const uploaded = join(dir, 'uploaded');
  const [day] = await readdir(uploaded);
  const serverDir = join(env.PAYROLL_DATA_DIR, 'local-server');
  const file = join(serverDir, 'payroll-local.sqlite');
  await truncate(file, 0);
  // The census put back in the export folder, as a clerk would after the server lost track of it.
  await rename(join(uploaded, day as string, 'census-emptied.csv'), join(dir, 'census-emptied.csv'));

  const again = await runCli(['watch', dir, '--env', 'local', '--once'], env);
  expect(again.code, again.stderr).toBe(1);
  for (const words of damagedWords(file, 'it is empty: 0 bytes', serverDir)) expect(again.stderr).toContain(words);
  // Not sent again: it waits in the export folder, and the database is left as it was.
  expect(await readFile(join(dir, 'census-emptied.csv'), 'utf8')).toBe(content);
  expect((await readFile(file)).length).toBe(0);
}, 120_000);

it('watch --env local refuses its built-in server\'s damaged database in the same words, exit 1', async () => {
  const env = uploaderEnv(await folder());
  const dir = await folder();
  expect((await runCli(['watch', dir, '--env', 'local', '--once'], env)).code).toBe(0);
  const serverDir = join(env.PAYROLL_DATA_DIR, 'local-server');
  const file = join(serverDir, 'payroll-local.sqlite');
  await overwriteHeader(file);

  const again = await runCli(['watch', dir, '--env', 'local', '--once'], env);
  expect(again.code, again.stderr).toBe(1);
  for (const words of damagedWords(file, 'file is not a database', serverDir)) expect(again.stderr).toContain(words);
  expect(again.stderr).toContain('payroll-uploader watch: the local server\'s database');
}, 120_000);
